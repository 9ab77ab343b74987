import { parseHTML } from 'linkedom';
import { parse, type DefaultTreeAdapterMap, type TreeAdapter, type TreeAdapterTypeMap, html as parse5Html, type Token } from 'parse5';
import { INSPECTED, INSPECTED_ATTRIBUTE } from './scan-page';

/**
 * The page's DOM is linkedom's (fast, and Readability and turndown run on it unmodified), but
 * linkedom's own parser is not the HTML5 tree builder: on real pages with stray `</body>`s,
 * misnested tables or content after `</html>`, whole articles land outside the body. So parse5,
 * the spec parser, builds the tree through its documented tree-adapter interface, creating
 * linkedom nodes. (Measured on the WCXB sample: docs/content.md, "Choosing the DOM".)
 */

type LinkedomMap = TreeAdapterTypeMap<Node, ParentNode, ChildNode, Document, DocumentFragment, Element, Comment, Text, HTMLTemplateElement, DocumentType>;

const { NS } = parse5Html;

const UNSERIALISABLE_NAME = /["'<=]/;

/**
 * Cleaning removes every `<svg>` (scan-page.ts), so of an SVG element only what the page scan
 * reads before that is kept; the rest of its attributes (paths, fills, view boxes) and text
 * would be a tenth of a page's nodes, built to be thrown away.
 */
function unreadSvg(node: ParentNode): boolean {
  const element = node as Element;
  return element.namespaceURI === NS.SVG && !INSPECTED.has(element.localName);
}
const unread = (element: Element, attrs: Token.Attribute[]): Token.Attribute[] => (unreadSvg(element) ? attrs.filter((attr) => attr.name === INSPECTED_ATTRIBUTE && !attr.prefix) : attrs);

/**
 * A page with more nodes than a processing thread may build: its DOM, and every stage's work
 * over it, would outgrow the thread's heap (see parsePage).
 */
export class TooManyNodes extends Error {
  constructor(readonly maxNodes: number) {
    super(`its document has more than ${maxNodes} elements and text nodes, the most processed in full`);
    this.name = 'TooManyNodes';
  }
}

/**
 * Builds one document; holds what the DOM has no place for (template contents, document mode).
 * Throws TooManyNodes once it has created `maxNodes` nodes.
 */
function linkedomAdapter(maxNodes: number): TreeAdapter<LinkedomMap> {
  let document: Document;
  let nodes = 0;
  const counted = <T>(node: T): T => {
    if (++nodes > maxNodes) throw new TooManyNodes(maxNodes);
    return node;
  };
  const templates = new WeakMap<Element, DocumentFragment>();
  let mode: DefaultTreeAdapterMap['document']['mode'] = parse5Html.DOCUMENT_MODE.NO_QUIRKS;
  const setAttributes = (element: Element, attrs: Token.Attribute[]): void => {
    for (const attr of attrs) {
      const name = attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
      // A name with quotes, `<` or `=` (markup gone wrong: `<div "="">`) is kept by browsers, but
      // no later stage reads it, and serialised it reads back as broken markup (the markdown
      // converter lost the content between two such names).
      if (UNSERIALISABLE_NAME.test(name) || element.hasAttribute(name)) continue;
      try {
        if (name === 'class') {
          // As its own node: `setAttribute('class')` builds the class list twice and the node once
          // more, and a page's elements are mostly classed.
          const node = document.createAttribute(name);
          node.value = attr.value;
          element.setAttributeNode(node);
        } else element.setAttribute(name, attr.value);
      } catch {
        // A name the DOM refuses: as above, nothing reads it.
      }
    }
  };
  const appendText = (parent: ParentNode, text: string, before: ChildNode | null): void => {
    if (unreadSvg(parent)) return;
    const previous = before ? before.previousSibling : parent.lastChild;
    if (previous?.nodeType === 3) (previous as Text).data += text;
    else parent.insertBefore(counted(document.createTextNode(text)), before);
  };
  return {
    createDocument: () => (document = parseHTML('').document as unknown as Document),
    createDocumentFragment: () => document.createDocumentFragment(),
    createElement(tagName, namespaceURI, attrs) {
      const html = namespaceURI === NS.HTML;
      const element = html ? document.createElement(tagName) : document.createElementNS(namespaceURI, tagName);
      setAttributes(element, html ? attrs : unread(element, attrs));
      return counted(element);
    },
    createCommentNode: (data) => counted(document.createComment(data)),
    createTextNode: (value) => counted(document.createTextNode(value)),
    appendChild: (parent, node) => void parent.appendChild(node),
    insertBefore: (parent, node, reference) => void parent.insertBefore(node, reference),
    setTemplateContent: (template, content) => void templates.set(template, content),
    getTemplateContent(template) {
      let content = templates.get(template);
      if (!content) templates.set(template, (content = document.createDocumentFragment()));
      return content;
    },
    setDocumentType() {
      // Nothing downstream reads the doctype.
    },
    setDocumentMode: (_document, value) => void (mode = value),
    getDocumentMode: () => mode,
    detachNode: (node) => node.parentNode?.removeChild(node),
    insertText: (parent, text) => appendText(parent, text, null),
    insertTextBefore: (parent, text, reference) => appendText(parent, text, reference),
    adoptAttributes: (recipient, attrs) => setAttributes(recipient, attrs),
    getFirstChild: (node) => node.firstChild,
    getChildNodes: (node) => Array.from(node.childNodes),
    getParentNode: (node) => node.parentNode,
    getAttrList: (element) => Array.from(element.attributes, (a) => ({ name: a.name, value: a.value })),
    getTagName: (element) => element.localName,
    getNamespaceURI: (element) => (element.namespaceURI ?? NS.HTML) as parse5Html.NS,
    getTextNodeContent: (node) => node.data,
    getCommentNodeContent: (node) => node.data,
    getDocumentTypeNodeName: (node) => node.name,
    getDocumentTypeNodePublicId: (node) => node.publicId,
    getDocumentTypeNodeSystemId: (node) => node.systemId,
    isTextNode: (node): node is Text => node.nodeType === 3,
    isCommentNode: (node): node is Comment => node.nodeType === 8,
    isDocumentTypeNode: (node): node is DocumentType => node.nodeType === 10,
    isElementNode: (node): node is Element => node.nodeType === 1,
    setNodeSourceCodeLocation() {
      // Source positions are not kept.
    },
    getNodeSourceCodeLocation: () => undefined,
    updateNodeSourceCodeLocation() {
      // Source positions are not kept.
    },
  };
}

/**
 * Parses an HTML page into a linkedom document, with the tree a browser would build. Parsed as
 * a browser without scripting does, so `<noscript>` content is markup: some sites (Discourse
 * forums, for one) serve their whole content there for clients that run no scripts.
 *
 * `maxNodes` bounds the tree before it is built: a thread that reaches its heap limit is not
 * always ended on its own (V8 aborts the whole process when the limit is hit inside some runtime
 * functions, as a page of a million elements did), so a page must never get near the limit.
 */
export function parsePage(html: string, maxNodes = Number.POSITIVE_INFINITY): Document {
  return parse(html, { treeAdapter: linkedomAdapter(maxNodes), scriptingEnabled: false });
}
