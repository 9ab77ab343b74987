declare module '@mixmark-io/domino' {
  /** Parses an HTML document with domino's HTML5 parser (the DOM turndown itself uses in Node). */
  export function createDocument(html?: string, force?: boolean): Document;
}
