import sniffHtmlEncoding from 'html-encoding-sniffer';
import iconv from 'iconv-lite';

const UNKNOWN = 'x-unknown';

function charsetOf(contentType: string): string | undefined {
  return /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
}

/**
 * Decodes with iconv-lite, which follows the WHATWG tables: Node 20's TextDecoder decodes
 * windows-1252 (the encoding `latin1` and `iso-8859-1` labels mean) as ISO-8859-1, turning
 * “ ” – € and the rest of 0x80-0x9F into control characters.
 */
function decodeAs(bytes: Uint8Array, encoding: string): string {
  if (iconv.encodingExists(encoding)) return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encoding);
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/**
 * Decodes a body to text: BOM, then the Content-Type charset, then (for HTML) a `<meta>`
 * prescan, per the HTML encoding-sniffing algorithm. Where nothing declares an encoding, valid
 * UTF-8 is taken as UTF-8 and anything else as windows-1252, as browsers do.
 */
export function decodeBody(bytes: Uint8Array, contentType: string, isHtml: boolean): { text: string; encoding: string } {
  let encoding = sniffHtmlEncoding(bytes, {
    transportLayerEncodingLabel: charsetOf(contentType),
    defaultEncoding: UNKNOWN,
  });
  if (!isHtml && encoding !== UNKNOWN && !charsetOf(contentType) && !/^utf-(8|16)/i.test(encoding)) {
    encoding = UNKNOWN; // a <meta> prescan means nothing outside HTML
  }
  if (encoding === UNKNOWN) {
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'UTF-8' };
    } catch {
      encoding = 'windows-1252';
    }
  }
  return { text: decodeAs(bytes, encoding), encoding };
}
