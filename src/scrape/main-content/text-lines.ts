import { selectAll } from '../html/css-selectors';
/** Text with its whitespace collapsed, as it reads on screen. */
export const squash = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();

/** Whether a UTF-16 code unit is whitespace to a regular expression's `\s` (ASCII and Unicode spaces). */
function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return code === 160 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/**
 * `squash(text).length`, counted without building the squashed string: the main-content rules
 * measure every block's text, often more than once, and that garbage was a tenth of their time.
 */
export function squashedLength(text: string | null | undefined): number {
  if (!text) return 0;
  let length = 0;
  // A run of whitespace counts as one space, and only once text follows it (trimmed at both ends).
  let pendingSpace = false;
  for (let i = 0; i < text.length; i++) {
    if (isSpace(text.charCodeAt(i))) {
      pendingSpace = length > 0;
    } else {
      if (pendingSpace) length++;
      pendingSpace = false;
      length++;
    }
  }
  return length;
}

/** A node's text as it reads on screen, whitespace collapsed: its length. */
export function visibleLength(node: Node | null | undefined): number {
  return squashedLength(node?.textContent);
}

/** Markup inside a line of text: a label with a link, an icon or emphasis in it is still one line. */
const PHRASING = new Set(['a', 'abbr', 'b', 'bdi', 'cite', 'data', 'em', 'i', 'img', 'mark', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'br']);

/** An element that holds one line of text: none of its children is a block. */
export function oneLine(element: Element): boolean {
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) if (!PHRASING.has(child.localName)) return false;
  return true;
}

/** `question`, answered once per element: for a pass that asks it of the same element again and again. */
export function answeredOnce<T>(question: (element: Element) => T): (element: Element) => T {
  const answers = new Map<Element, T>();
  return (element) => {
    if (!answers.has(element)) answers.set(element, question(element));
    return answers.get(element) as T;
  };
}

/**
 * `oneLine`, answered once per element: a pass that asks it of each element and of its parent
 * would otherwise walk every parent's children once per child.
 */
export const oneLineOnce = (): ((element: Element) => boolean) => answeredOnce(oneLine);

/** `visibleLength` once per element: a pass over many links' ancestors would otherwise read a large section's text once per link inside it. */
export const visibleLengthOnce = (): ((element: Element) => number) => answeredOnce(visibleLength);

/**
 * An element that is a whole line, not a word or link inside one: its inline wrappers and the
 * inline neighbours up to the next block or `<br>` add no text (`<p>click <b>Join</b>.</p>` is a
 * sentence; a link under a heading and a paragraph is a line of its own).
 */
export function wholeLine(element: Element): boolean {
  if (!PHRASING.has(element.localName)) return true;
  let top = element;
  while (top.parentElement && PHRASING.has(top.parentElement.localName)) top = top.parentElement;
  if (visibleLength(top) !== visibleLength(element)) return false;
  const silent = (node: ChildNode | null, step: (node: ChildNode) => ChildNode | null): boolean => {
    for (; node; node = step(node)) {
      if (node.nodeType === 1 && (!PHRASING.has((node as Element).localName) || (node as Element).localName === 'br')) return true;
      if ((node.textContent ?? '').trim()) return false;
    }
    return true;
  };
  return silent(top.previousSibling, (node) => node.previousSibling) && silent(top.nextSibling, (node) => node.nextSibling);
}

/**
 * Removes, in place, the lines under `root` whose text (whitespace collapsed) is at most
 * `maxLength` long and that `matches` picks: one-line elements, and the runs of text and inline
 * markup between the blocks of another element (`<div><section>...</section><a>Log in</a> to
 * set a price alert.</div>`), which a browser lays out as lines of their own; such a run is
 * asked about with the element it sits in.
 */
export function dropLines(root: Element, maxLength: number, matches: (text: string, element: Element) => boolean): void {
  for (const element of selectAll(root, '*')) {
    if (!root.contains(element)) continue;
    if (!oneLine(element)) {
      dropLooseLines(element, maxLength, matches);
      continue;
    }
    const text = squash(element.textContent);
    if (text && text.length <= maxLength && matches(text, element)) element.remove();
  }
}

/** The runs of text and inline markup between `element`'s blocks that `matches` picks. */
function dropLooseLines(element: Element, maxLength: number, matches: (text: string, element: Element) => boolean): void {
  let run: ChildNode[] = [];
  const judge = () => {
    const text = squash(run.map((node) => node.textContent).join(''));
    if (text && text.length <= maxLength && matches(text, element)) for (const node of run) node.remove();
    run = [];
  };
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 8) continue; // a comment is no line's end
    const inline = node.nodeType === 3 || (node.nodeType === 1 && PHRASING.has((node as Element).localName) && (node as Element).localName !== 'br');
    if (inline) run.push(node);
    else if (run.length > 0) judge();
  }
  if (run.length > 0) judge();
}

/** What `squashedLength` needs to know of a stretch of text to add its neighbours to it. */
interface Stretch {
  /** Characters that are not whitespace. */
  solid: number;
  /** Runs of whitespace between two of them: each counts as one space. */
  gaps: number;
  /** Whether it opens, and closes, with whitespace (both, when it has no other character). */
  opens: boolean;
  closes: boolean;
}

const NOTHING: Stretch = { solid: 0, gaps: 0, opens: false, closes: false };

function stretchOf(text: string): Stretch {
  let solid = 0;
  let gaps = 0;
  let pendingSpace = false;
  for (let i = 0; i < text.length; i++) {
    if (isSpace(text.charCodeAt(i))) pendingSpace = true;
    else {
      if (pendingSpace && solid > 0) gaps++;
      pendingSpace = false;
      solid++;
    }
  }
  const opens = text.length > 0 && isSpace(text.charCodeAt(0));
  return { solid, gaps, opens, closes: pendingSpace || (solid === 0 && opens) };
}

function join(a: Stretch, b: Stretch): Stretch {
  if (a.solid === 0) return { solid: b.solid, gaps: b.gaps, opens: a.opens || b.opens, closes: b.closes || (b.solid === 0 && a.closes) };
  if (b.solid === 0) return { solid: a.solid, gaps: a.gaps, opens: a.opens, closes: a.closes || b.opens };
  return { solid: a.solid + b.solid, gaps: a.gaps + b.gaps + (a.closes || b.opens ? 1 : 0), opens: a.opens, closes: b.closes };
}

/** `visibleLength` of every element under a root, and how many links each holds, as the tree stood when measured. */
export interface TextMeasures {
  length(element: Element): number;
  /** `element.querySelectorAll('a').length`. */
  links(element: Element): number;
}

/**
 * Measures every element under `root` (and `root`) in one walk, children before parents: a pass
 * that asks each block's length (and each of its links') reads the text of a page once, where
 * `visibleLength` per block reads it once per level of nesting. Exact for any element whose
 * subtree has not changed since.
 */
export function textMeasures(root: Element): TextMeasures {
  const lengths = new Map<Element, number>();
  const links = new Map<Element, number>();
  const walk = (element: Element): Stretch => {
    let stretch = NOTHING;
    let count = 0;
    for (let node = element.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 3 || node.nodeType === 4) stretch = join(stretch, stretchOf((node as Text).data));
      else if (node.nodeType === 1) {
        const child = node as Element;
        stretch = join(stretch, walk(child));
        count += links.get(child)! + (child.localName === 'a' ? 1 : 0);
      }
    }
    lengths.set(element, stretch.solid + stretch.gaps);
    links.set(element, count);
    return stretch;
  };
  walk(root);
  return {
    length: (element) => lengths.get(element) ?? visibleLength(element),
    links: (element) => links.get(element) ?? selectAll(element, 'a').length,
  };
}
