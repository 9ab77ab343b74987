export type ContentKind = 'html' | 'pdf' | 'json' | 'xml' | 'text' | 'unsupported';

/** What the body is, from its Content-Type, or from its first bytes when that says nothing. */
export function contentKind(contentType: string, body: Uint8Array): ContentKind {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/pdf') return 'pdf';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  if (type.startsWith('text/')) return 'text';
  if (type && type !== 'application/octet-stream') return 'unsupported';
  const head = Buffer.from(body.subarray(0, 512)).toString('latin1').trimStart();
  if (head.startsWith('%PDF-')) return 'pdf';
  if (/^<(!doctype html|html|head|body)/i.test(head)) return 'html';
  if (head.startsWith('<?xml')) return 'xml';
  if (head.startsWith('{') || head.startsWith('[')) return 'json';
  return 'unsupported';
}
