import { CodeBlockStyle, convert, HeadingStyle, HighlightStyle, type ConversionOptions } from '@kreuzberg/html-to-markdown-node';
import { markdownFence } from '../markdown-fence';
import { gfmTable } from './gfm-table';
import { escapeMarkdown } from './markdown-escape';
import { selectOne } from './css-selectors';

/**
 * Markdown is written by a native converter (html-to-markdown, Rust) from HTML that this module
 * serialises from the cleaned DOM. The serialiser settles on the way what the converter would
 * write differently from the markdown this service has always returned: tables, code blocks,
 * images and links around blocks are written here and stand in the HTML as placeholders; text is
 * escaped here; only the attributes the converter needs are kept, so it makes no content
 * decisions of its own (it drops elements that are `hidden` or have certain classes, and cleaning
 * has already decided what is content).
 */
const OPTIONS: ConversionOptions = {
  headingStyle: HeadingStyle.Atx,
  codeBlockStyle: CodeBlockStyle.Backticks,
  bullets: '-',
  strongEmSymbol: '*',
  // Marked text is text, as it always was here (the converter writes `==x==`).
  highlightStyle: HighlightStyle.None,
  // Inline in HTML, blocks to the converter: a label or button in a sentence would split it, and a
  // label in a list item would loosen the list. Unwrapped, their text stays where it is.
  stripTags: ['label', 'button', 'select', 'option', 'output', 'textarea', 'meter', 'progress', 'video', 'audio', 'ins'],
  // Cleaning has settled the page already; the converter's metadata is read elsewhere.
  extractMetadata: false,
  preprocessing: { enabled: false },
};

/** Private-use characters: a placeholder of the n-th block is MARK n MARK, and cells are split at CELL. */
const MARK = '\uE000';
const CELL = '\uE001';
const PLACEHOLDER = new RegExp(`${MARK}(\\d+)${MARK}`, 'g');
const CELL_BREAK = new RegExp(`\\s*${CELL}\\s*`);

/**
 * The elements the converter knows. It runs the content of any other (custom elements, `<font>`,
 * `<center>`, `<strike>`) together with its neighbours', dropping the whitespace between them;
 * such an element is serialised as its content, or as a `<div>` where browsers lay it out as a
 * block.
 */
const KNOWN = new Set(
  ('a abbr article aside audio b bdi bdo blockquote br button caption cite code data datalist dd del details dfn dialog div dl dt ' +
    'em fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr i ins kbd label legend li main mark menu ' +
    'meter nav ol option output p picture progress q rp rt ruby s samp section select small source span strong sub summary sup ' +
    'textarea time u ul var video wbr')
    .toUpperCase()
    .split(' '),
);
const UNKNOWN_BLOCKS = new Set(['ADDRESS', 'CENTER', 'DIR', 'HGROUP', 'SEARCH', 'XMP', 'LISTING', 'PLAINTEXT']);
const VOID = new Set(['BR', 'HR', 'SOURCE', 'WBR']);
/** The attributes the converter reads, by element. */
const ATTRIBUTES: Record<string, readonly string[]> = { A: ['href', 'title'], OL: ['start'] };

/** Elements that lay out a block: inside a link, the converter runs their text together. */
const BLOCK = ['address', 'article', 'aside', 'blockquote', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'section', 'table', 'tr', 'td', 'th', 'ul'];
const BLOCK_SELECTOR = BLOCK.join(',');
const BLOCK_NAMES = new Set(BLOCK.map((name) => name.toUpperCase()));

const HEADING = /^H[1-6]$/;
const isBlockLink = (element: Element): boolean => element.nodeName === 'A' && element.firstElementChild !== null && selectOne(element, BLOCK_SELECTOR) !== null;

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

const isCheckbox = (node: Element): boolean =>
  node.nodeName === 'INPUT' ? node.getAttribute('type')?.toLowerCase() === 'checkbox' : node.getAttribute('role') === 'checkbox';

/** A checkbox that marks a list item as a task: in the `<li>`, or in a label or span of it. */
const marksListItem = (node: Element): boolean => {
  const parent = node.parentNode;
  return parent?.nodeName === 'LI' || ((parent?.nodeName === 'LABEL' || parent?.nodeName === 'SPAN') && parent.parentNode?.nodeName === 'LI');
};

const isChecked = (node: Element): boolean => (node.nodeName === 'INPUT' ? node.hasAttribute('checked') : node.getAttribute('aria-checked') === 'true');

const LANGUAGE = /(?:^|\s)lang(?:uage)?-(\S+)/;
const HIGHLIGHT = /highlight-(?:text|source)-([a-z0-9]+)/;

/** A fenced code block, its fence longer than any backtick run inside, its language from the markup. */
function codeBlock(pre: Element): string {
  const code = pre.firstElementChild?.nodeName === 'CODE' ? pre.firstElementChild : null;
  const language =
    LANGUAGE.exec(code?.getAttribute('class') ?? '')?.[1] ??
    LANGUAGE.exec(pre.getAttribute('class') ?? '')?.[1] ??
    (pre.parentNode?.nodeName === 'DIV' ? HIGHLIGHT.exec((pre.parentNode as Element).getAttribute('class') ?? '')?.[1] : undefined) ??
    '';
  const text = (pre.textContent ?? '').replace(/\n$/, '');
  const fence = markdownFence(text);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** A link or image destination that parentheses and spaces cannot end early. */
const destination = (url: string): string => url.replace(/[()]/g, '\\$&').replace(/\s/g, encodeURIComponent);

function titlePart(element: Element): string {
  const title = element.getAttribute('title')?.replace(/\s+/g, ' ').trim();
  return title ? ` "${title.replace(/"/g, '\\"')}"` : '';
}

/** An image with a source, as markdown; nothing without one. (The converter writes `src` and `alt` as serialised, `&amp;` and all.) */
function image(img: Element): string {
  const src = img.getAttribute('src');
  return src ? `![${escapeMarkdown(img.getAttribute('alt')?.replace(/\s+/g, ' ').trim() ?? '')}](${destination(src)}${titlePart(img)})` : '';
}

/**
 * A link around blocks (a card: image, heading, teaser), which the converter would run together
 * into one word-glued line with its images as alt text: written here as a paragraph of one
 * line, its blocks apart, its images kept.
 */
function blockLink(link: Element): string {
  const parts: string[] = [];
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) parts.push(escapeMarkdown((child as Text).data));
      else if (child.nodeName === 'IMG') parts.push(` ${image(child as Element)} `);
      else if (child.nodeType === ELEMENT_NODE) {
        const block = BLOCK_NAMES.has(child.nodeName) || child.nodeName === 'BR';
        if (block) parts.push(' ');
        walk(child);
        if (block) parts.push(' ');
      }
    }
  };
  walk(link);
  const text = parts.join('').replace(/\s+/g, ' ').trim();
  const href = link.getAttribute('href');
  return href ? `[${text}](${destination(href)}${titlePart(link)})` : text;
}

/** HTML for the converter from a tree, with the blocks written here in `blocks` and placeholders in their place. */
class Serialiser {
  readonly blocks: string[] = [];
  private html = '';
  /** How many headings the element being serialised is in. */
  private headings = 0;
  /** Whether the text written last ends in a space. */
  private space = false;

  /** The content of `root`, serialised. */
  children(root: Node): string {
    const outer = this.html;
    this.html = '';
    this.childNodes(root);
    const html = this.html;
    this.html = outer;
    return html;
  }

  private childNodes(parent: Node): void {
    for (let node = parent.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === TEXT_NODE) this.text((node as Text).data);
      else if (node.nodeType === ELEMENT_NODE) this.element(node as Element);
    }
  }

  /**
   * Whitespace collapses as a browser collapses it, across inline elements too: the converter
   * keeps source line breaks in text, and a space of each text node around a tag (runs of spaces
   * between a forum post's author and its date).
   */
  private text(data: string): void {
    let text = data.replace(/[ \t\n\r\f]+/g, ' ');
    if (this.space && text.startsWith(' ')) text = text.slice(1);
    if (!text) return;
    this.space = text.endsWith(' ');
    this.html += escapeHtml(escapeMarkdown(text));
  }

  private placeholder(markdown: string): string {
    this.space = false;
    return `${MARK}${this.blocks.push(markdown) - 1}${MARK}`;
  }

  private element(element: Element): void {
    const name = element.nodeName;
    switch (name) {
      case 'TABLE':
        this.html += `<p>${this.placeholder(gfmTable(element, (cells) => this.cells(cells)))}</p>`;
        return;
      case 'PRE':
        this.html += `<p>${this.placeholder(codeBlock(element))}</p>`;
        return;
      case 'UL':
      case 'OL':
        this.html += `<p>${this.placeholder(this.list(Array.from(element.children), element))}</p>`;
        return;
      case 'LI':
        // Outside a list (a wrapper between them, or none): an item of its own.
        this.html += `<p>${this.placeholder(this.list([element], null))}</p>`;
        return;
      case 'IMG':
        this.html += this.placeholder(image(element));
        return;
      case 'CODE':
        // Inline code is verbatim: nothing inside is escaped.
        this.html += `<code>${escapeHtml(element.textContent ?? '')}</code>`;
        this.space = false;
        return;
      case 'A': {
        const empty = !element.textContent?.trim();
        // A link with nothing to show (an icon drawn by CSS) would read as its URL.
        if (empty && !element.getElementsByTagName('img').length) return;
        if (isBlockLink(element)) {
          this.html += `<p>${this.placeholder(blockLink(element))}</p>`;
          return;
        }
        // Without an address it is text (the converter writes `[text](<>)`).
        if (!element.getAttribute('href')?.trim()) {
          this.childNodes(element);
          return;
        }
        break;
      }
    }
    if (name === 'BR' && this.headings > 0) {
      // A heading is one line: a line break in one is a space (the converter writes a run of them).
      this.text(' ');
    } else if (isCheckbox(element) && marksListItem(element)) {
      this.html += isChecked(element) ? '[x] ' : '[ ] ';
    } else if (KNOWN.has(name)) {
      const tag = element.localName;
      let attributes = '';
      for (const attribute of ATTRIBUTES[name] ?? []) {
        const value = element.getAttribute(attribute);
        // The converter writes a title as serialised, entities and all: a title that needs one is left out.
        if (value !== null && !(attribute === 'title' && /[&"]/.test(value))) attributes += ` ${attribute}="${escapeAttribute(value)}"`;
      }
      this.html += `<${tag}${attributes}>`;
      if (VOID.has(name)) {
        this.space = false;
        return;
      }
      const heading = HEADING.test(name);
      if (heading) this.headings++;
      this.childNodes(element);
      if (heading) this.headings--;
      this.html += `</${tag}>`;
    } else if (UNKNOWN_BLOCKS.has(name)) {
      this.html += '<div>';
      this.childNodes(element);
      this.html += '</div>';
    } else {
      this.childNodes(element);
    }
  }

  /** The markdown of each element's content, from one conversion of all of them. */
  private cells(cells: Element[]): string[] {
    if (cells.length === 0) return [];
    return this.markdown(cells.map((cell) => this.children(cell)).join(`<p>${CELL}</p>`)).split(CELL_BREAK);
  }

  /**
   * A list, its items' content converted at once and indented under their markers here: the
   * converter puts a heading or paragraph in an item out of the list, or glues it to the text
   * before it. Items with nothing to show are left out.
   */
  private list(items: Element[], list: Element | null): string {
    let number = Number.parseInt(list?.getAttribute('start') ?? '', 10);
    if (Number.isNaN(number)) number = 1;
    const lines: string[] = [];
    this.cells(items).forEach((content, i) => {
      const marker = list?.nodeName === 'OL' ? `${number + i}. ` : '- ';
      const text = content.trim();
      if (!text) return;
      const indent = ' '.repeat(marker.length);
      lines.push(marker + text.split('\n').map((line, j) => (j === 0 || !line ? line : indent + line)).join('\n'));
    });
    return lines.join('\n');
  }

  /** Converts serialised HTML and puts each block's markdown where its placeholder is, every line of it as indented as the first. */
  markdown(html: string): string {
    const markdown = convert(html, OPTIONS).content ?? '';
    return markdown.replace(PLACEHOLDER, (match, index: string, offset: number) => {
      const block = this.blocks[Number(index)];
      if (block === undefined) return match;
      if (!block.includes('\n')) return block;
      // A list marker opens the first line; the lines after it take its width in spaces, and a quote keeps its '>'.
      const indent = markdown.slice(markdown.lastIndexOf('\n', offset - 1) + 1, offset).replace(/[^>\s]/g, ' ');
      const blank = indent.trimEnd();
      return block
        .split('\n')
        .map((line, i) => (i === 0 ? line : line ? indent + line : blank))
        .join('\n');
    });
  }
}

/** GitHub-flavoured markdown of an element's content. */
export function toMarkdown(root: Element): string {
  const serialiser = new Serialiser();
  return (
    serialiser
      .markdown(serialiser.children(root))
      // Left by elements with nothing to show.
      .replace(/^[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}
