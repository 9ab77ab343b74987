declare module 'html-encoding-sniffer' {
  /** Returns the WHATWG name of the encoding the HTML encoding-sniffing algorithm picks. */
  export default function sniffHtmlEncoding(
    bytes: Uint8Array,
    options?: { transportLayerEncodingLabel?: string; defaultEncoding?: string },
  ): string;
}
