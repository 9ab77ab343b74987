import { Tokenizer } from 'htmlparser2';

/** Elements whose content a reader never sees. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'title']);
/** Elements that start a paragraph of their own. */
const PARAGRAPH = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'table', 'ul', 'ol', 'dl', 'figure', 'hr']);
/** Elements that start a line. */
const LINE = new Set(['br', 'div', 'li', 'tr', 'dt', 'dd', 'section', 'article', 'main', 'header', 'footer', 'nav', 'aside', 'address', 'form', 'fieldset', 'figcaption', 'details', 'summary', 'caption']);
const MAX_TITLE_CHARS = 1_000;

export interface VisibleText {
  text: string;
  title?: string;
  /** The text reached `maxChars` and the rest of the page was not read. */
  truncated: boolean;
  /** The `href` of each `<a>` and `<area>` read, as written (entities decoded), in document order. */
  hrefs: string[];
  /** The first `<base href>`, if any. */
  baseHref?: string;
}

/** Elements whose `href` is a link a reader can follow; `<base>`'s sets what they resolve against. */
const LINKING = new Set(['a', 'area']);

/** Collapses whitespace as a browser lays out inline text, with line and paragraph breaks between blocks. */
class TextBuilder {
  private readonly parts: string[] = [];
  length = 0;
  /** Newlines the text ends with; 2 at the start, so leading breaks are dropped. */
  private newlines = 2;
  private pendingSpace = false;

  add(raw: string): void {
    const collapsed = raw.replace(/\s+/g, ' ');
    const core = collapsed.trim();
    if (collapsed.startsWith(' ') && this.newlines === 0) this.pendingSpace = true;
    if (core) {
      this.push(this.pendingSpace ? ` ${core}` : core);
      this.newlines = 0;
      this.pendingSpace = false;
    }
    if (collapsed.endsWith(' ') && this.newlines === 0) this.pendingSpace = true;
  }

  break(count: 1 | 2): void {
    this.pendingSpace = false;
    for (; this.newlines < count; this.newlines++) this.push('\n');
  }

  toString(): string {
    return this.parts.join('').trimEnd();
  }

  private push(s: string): void {
    this.parts.push(s);
    this.length += s.length;
  }
}

/**
 * The text a reader sees in an HTML page, from one pass of htmlparser2's tokenizer: no tree, no
 * element stack (htmlparser2's Parser keeps one and shifts it per tag, quadratic in nesting
 * depth), so time is linear in the page's length whatever its nesting, attributes or links, and
 * the text stops at `maxChars`.
 */
export function visibleText(html: string, maxChars: number): VisibleText {
  const text = new TextBuilder();
  let title: string | undefined;
  /** The hidden element being read through; the tokenizer keeps script/style/title content raw, others nest. */
  let hidden: string | undefined;
  let hiddenDepth = 0;
  let truncated = false;
  let tag = '';
  const hrefs: string[] = [];
  let baseHref: string | undefined;
  /** The value of the `href` being read, of a linking or base element; undefined otherwise. */
  let href: string | undefined;
  let attribute = '';
  const onText = (s: string) => {
    if (hidden === 'title') title = (title ?? '') + s.slice(0, MAX_TITLE_CHARS - (title?.length ?? 0));
    if (hidden) return;
    text.add(s);
    if (text.length >= maxChars) {
      truncated = true;
      tokenizer.pause();
    }
  };
  const noop = () => undefined;
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      ontext: (start, end) => onText(html.slice(start, end)),
      ontextentity: (codepoint) => onText(String.fromCodePoint(codepoint)),
      onopentagname: (start, end) => {
        tag = html.slice(start, end).toLowerCase();
        if (hidden === tag) hiddenDepth++;
        else if (!hidden && HIDDEN.has(tag)) [hidden, hiddenDepth] = [tag, 1];
      },
      onopentagend: () => breakAt(tag),
      onselfclosingtag: () => breakAt(tag),
      onclosetag: (start, end) => {
        const name = html.slice(start, end).toLowerCase();
        if (hidden === name && --hiddenDepth === 0) hidden = undefined;
        else breakAt(name);
      },
      onattribname: (start, end) => {
        attribute = html.slice(start, end).toLowerCase();
        if (attribute === 'href' && (LINKING.has(tag) || (tag === 'base' && baseHref === undefined))) href = '';
      },
      onattribdata: (start, end) => {
        if (href !== undefined) href += html.slice(start, end);
      },
      onattribentity: (codepoint) => {
        if (href !== undefined) href += String.fromCodePoint(codepoint);
      },
      onattribend: () => {
        if (href === undefined) return;
        if (tag === 'base') baseHref = href;
        else hrefs.push(href);
        href = undefined;
      },
      oncdata: noop,
      oncomment: noop,
      ondeclaration: noop,
      onend: noop,
      onprocessinginstruction: noop,
    },
  );
  function breakAt(name: string): void {
    if (hidden) return;
    if (PARAGRAPH.has(name)) text.break(2);
    else if (LINE.has(name)) text.break(1);
  }
  tokenizer.write(html);
  if (!truncated) tokenizer.end();
  const trimmedTitle = title?.replace(/\s+/g, ' ').trim();
  return { text: text.toString().slice(0, maxChars), ...(trimmedTitle && { title: trimmedTitle }), truncated, hrefs, ...(baseHref !== undefined && { baseHref }) };
}
