import { createDocument } from '@mixmark-io/domino';

let patched = false;

/**
 * domino's element lists are array-like but not iterable, and Readability iterates them with
 * for...of; giving their prototypes the array iterator, once per process, is all it takes.
 */
function patchDomino(document: Document): void {
  for (const list of [document.getElementsByTagName('*'), document.querySelectorAll('*'), document.childNodes]) {
    const proto = Object.getPrototypeOf(list) as { [Symbol.iterator]?: unknown };
    if (!(Symbol.iterator in proto)) Object.defineProperty(proto, Symbol.iterator, { value: Array.prototype[Symbol.iterator], configurable: true });
  }
  patched = true;
}

/**
 * Parses cleaned body HTML into a DOM for the stages that need one (Readability, turndown,
 * text). One parse serves them all: Readability hands back an element, and turndown and the
 * text walker take elements, so nothing is serialized and parsed again in between. domino is
 * the DOM turndown itself uses in Node.
 */
export function parseDocument(bodyHtml: string, baseUrl: string): Document {
  const document = createDocument(`<!doctype html><html><head></head><body>${bodyHtml}</body></html>`);
  if (!patched) patchDomino(document);
  // Readability resolves links against baseURI.
  for (const name of ['baseURI', 'documentURI']) Object.defineProperty(document, name, { value: baseUrl });
  return document;
}
