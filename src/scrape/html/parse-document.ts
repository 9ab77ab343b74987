import { createDocument } from '@mixmark-io/domino';

let patched = false;

/**
 * Two gaps between domino and what Readability expects, mended once per process:
 * - element lists are array-like but not iterable, and Readability iterates them with for...of;
 * - `setAttributeNode` skips domino's id bookkeeping, so an element Readability retags (it
 *   copies the attributes over that way) keeps an id the document does not know, and moving it
 *   later fails an assertion. Setting the value through `setAttribute` keeps the books.
 */
function patchDomino(document: Document): void {
  for (const list of [document.getElementsByTagName('*'), document.querySelectorAll('*'), document.childNodes]) {
    const proto = Object.getPrototypeOf(list) as { [Symbol.iterator]?: unknown };
    if (!(Symbol.iterator in proto)) Object.defineProperty(proto, Symbol.iterator, { value: Array.prototype[Symbol.iterator], configurable: true });
  }
  // Element.prototype's own method is not configurable; HTMLElement.prototype sits in front of it.
  const htmlElement = Object.getPrototypeOf(Object.getPrototypeOf(document.createElement('div'))) as HTMLElement;
  Object.defineProperty(htmlElement, 'setAttributeNode', {
    value(this: Element, attr: Attr) {
      const previous = this.getAttributeNode(attr.name);
      this.setAttribute(attr.name, attr.value);
      return previous;
    },
    configurable: true,
  });
  patched = true;
}

/**
 * Parses an HTML page into a DOM: domino, the DOM turndown itself uses in Node, and one that
 * Readability, turndown and the text walker all take, so a page is parsed once.
 */
export function parsePage(html: string, pageUrl: string): Document {
  const document = createDocument(html);
  if (!patched) patchDomino(document);
  // Readability resolves links against baseURI.
  for (const name of ['baseURI', 'documentURI']) Object.defineProperty(document, name, { value: pageUrl });
  return document;
}

/** Parses the inner HTML of a body (a page's cleaned content) into a document of its own. */
export function parseBody(bodyHtml: string, pageUrl: string): Document {
  return parsePage(`<!doctype html><html><head></head><body>${bodyHtml}</body></html>`, pageUrl);
}
