import { hasLazySource } from './lazy-images';

/** Elements that never carry readable content; cleaning removes them. */
const NON_CONTENT = new Set(['script', 'style', 'template', 'link', 'meta', 'iframe', 'object', 'embed', 'canvas', 'svg']);

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';
const ELEMENT_NODE = 1;
const COMMENT_NODE = 8;

/**
 * The elements of a page that metadata, links and cleaning read or change, found in one walk
 * of the document instead of a selector query each.
 */
export interface PageScan {
  /** `href` of the first `<base href>`. */
  baseHref: string | null;
  /** The first HTML `<title>` (not an SVG one). */
  title: Element | null;
  /** `<meta content>`, anywhere in the page (microdata puts some in the body). */
  metas: Element[];
  /** `<link>`s whose rel names an icon, in document order. */
  icons: Element[];
  /** `<a href>` and `<area href>`, in document order. */
  anchors: Element[];
  /** `<img>`, `<source>`, `<video>` and `<audio>` with a `src` or `srcset`; images also with a lazy-loading one. */
  media: Element[];
  /** How many `<script>`s the page runs (not data blocks such as JSON-LD). */
  scripts: number;
  /** Comments, non-content elements and the head's contents: what cleaning removes. */
  removable: Node[];
  /** Text of `<script type="application/ld+json">` blocks. */
  jsonLd: string[];
  /** Microdata `itemtype`s. */
  itemTypes: string[];
  /** Elements at MAX_DEPTH that nest further: cleaning flattens their content to text. */
  tooDeep: Element[];
  /** `<noscript>`s of the body, outermost: cleaning keeps them only for a page that is empty without them. */
  noscripts: Element[];
}

/** Script types a browser runs (HTML's JavaScript MIME types, `module`, or none); any other type is a data block. */
const RUNS = /^(?:|module|(?:application|text)\/(?:x-)?(?:ecma|java)script|text\/javascript1\.[0-5]|text\/(?:jscript|livescript))$/;

function isIconLink(link: Element): boolean {
  const rel = (link.getAttribute('rel') ?? '').toLowerCase();
  return rel === 'apple-touch-icon' || rel.split(/\s+/).includes('icon');
}

/**
 * Deeper than this, an element's content is kept as text: turndown and Readability recurse per
 * level, and a hostile page nests 100,000 deep. Real pages stay far below it.
 */
export const MAX_DEPTH = 400;

/**
 * Walks the document once, in document order, without recursion (a page may nest deeper than
 * the stack): siblings by pointer, climbing back up through parentNode.
 */
export function scanPage(document: Document): PageScan {
  const scan: PageScan = { baseHref: null, title: null, metas: [], icons: [], anchors: [], media: [], scripts: 0, removable: [], noscripts: [], jsonLd: [], itemTypes: [], tooDeep: [] };
  // removedDepth: depth of the removed ancestor we are inside, or -1.
  let removedDepth = -1;
  let depth = 0;
  let node: Node | null = document.firstChild;
  while (node) {
    let descend = false;
    if (node.nodeType === COMMENT_NODE) {
      if (removedDepth < 0) scan.removable.push(node);
    } else if (node.nodeType === ELEMENT_NODE) {
      const element = node as Element;
      inspect(element, scan, removedDepth >= 0);
      const inHead = element.parentNode?.nodeName === 'HEAD';
      if (removedDepth < 0 && (inHead || NON_CONTENT.has(element.localName))) {
        scan.removable.push(element);
        removedDepth = depth;
      }
      if (depth >= MAX_DEPTH && element.firstElementChild) scan.tooDeep.push(element);
      else descend = element.firstChild !== null;
    }
    if (descend) {
      node = node.firstChild;
      depth++;
      continue;
    }
    // Next in document order: a sibling, or the sibling of the nearest ancestor that has one.
    while (node && !node.nextSibling) {
      node = node.parentNode;
      depth--;
      if (removedDepth > depth) removedDepth = -1;
      if (node === document) node = null;
    }
    if (node) {
      if (removedDepth === depth) removedDepth = -1;
      node = node.nextSibling;
    }
  }
  return scan;
}

/** The elements whose attributes or text `inspect` reads; of any other element, it reads only `itemtype`. */
export const INSPECTED = new Set(['a', 'area', 'meta', 'link', 'base', 'title', 'script', 'noscript', 'img', 'source', 'video', 'audio']);
export const INSPECTED_ATTRIBUTE = 'itemtype';

/** Records what metadata, links and cleaning need of one element (see INSPECTED). */
function inspect(element: Element, scan: PageScan, inRemoved: boolean): void {
  switch (element.localName) {
    case 'a':
    case 'area':
      if (element.hasAttribute('href')) scan.anchors.push(element);
      break;
    case 'meta':
      if (element.hasAttribute('content')) scan.metas.push(element);
      break;
    case 'link':
      if (isIconLink(element)) scan.icons.push(element);
      break;
    case 'base':
      if (scan.baseHref === null && element.hasAttribute('href')) scan.baseHref = element.getAttribute('href');
      break;
    case 'title':
      if (!scan.title && element.namespaceURI === HTML_NAMESPACE) scan.title = element;
      break;
    case 'script': {
      const type = element.getAttribute('type')?.trim().toLowerCase() ?? '';
      if (RUNS.test(type)) scan.scripts++;
      else if (type === 'application/ld+json') scan.jsonLd.push(element.textContent ?? '');
      break;
    }
    case 'noscript':
      if (!inRemoved) scan.noscripts.push(element);
      break;
    case 'img':
    case 'source':
      if (element.hasAttribute('src') || element.hasAttribute('srcset') || hasLazySource(element)) scan.media.push(element);
      break;
    case 'video':
    case 'audio':
      if (element.hasAttribute('src') || element.hasAttribute('srcset')) scan.media.push(element);
      break;
  }
  if (element.hasAttribute('itemtype')) scan.itemTypes.push(element.getAttribute('itemtype')!);
}
