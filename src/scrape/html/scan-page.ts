/** Elements that never carry readable content; cleaning removes them. */
const NON_CONTENT = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta', 'iframe', 'object', 'embed', 'canvas', 'svg']);

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
  /** `<img>`, `<source>`, `<video>` and `<audio>` with a `src` or `srcset`. */
  media: Element[];
  /** How many `<script>` elements the page has. */
  scripts: number;
  /** Comments, non-content elements and the head's contents: what cleaning removes. */
  removable: Node[];
}

function isIconLink(link: Element): boolean {
  const rel = (link.getAttribute('rel') ?? '').toLowerCase();
  return rel === 'apple-touch-icon' || rel.split(/\s+/).includes('icon');
}

/** Walks the document once, siblings by pointer (domino builds child arrays on demand). */
export function scanPage(document: Document): PageScan {
  const scan: PageScan = { baseHref: null, title: null, metas: [], icons: [], anchors: [], media: [], scripts: 0, removable: [] };
  const visit = (parent: Node, inRemoved: boolean, childrenRemovable: boolean): void => {
    for (let node = parent.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === COMMENT_NODE) {
        if (!inRemoved) scan.removable.push(node);
        continue;
      }
      if (node.nodeType !== ELEMENT_NODE) continue;
      const element = node as Element;
      const name = element.localName;
      switch (name) {
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
        case 'script':
          scan.scripts++;
          break;
        case 'img':
        case 'source':
        case 'video':
        case 'audio':
          if (element.hasAttribute('src') || element.hasAttribute('srcset')) scan.media.push(element);
          break;
      }
      const removed = !inRemoved && (childrenRemovable || NON_CONTENT.has(name));
      if (removed) scan.removable.push(element);
      visit(element, inRemoved || removed, name === 'head');
    }
  };
  visit(document, false, false);
  return scan;
}
