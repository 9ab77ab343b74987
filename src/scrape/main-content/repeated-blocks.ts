import { oneLineOnce, squash, textMeasures, visibleLength } from './text-lines';
import { closestTag } from './closest-tag';
import { selectAll } from '../html/css-selectors';

/**
 * Sections whose text the content already said: a page ships some parts twice (a mobile and a
 * desktop copy of a description, a carousel's cloned slides, a screen reader's copy of a price
 * right beside the visible one), and only one shows at a time. A single repeated paragraph
 * elsewhere is left alone: tabs and cards repeat a sentence on purpose (each language's
 * instructions, each coupon's fine print).
 */

/** Elements that hold a block of text, as the text format breaks it into lines. */
const BLOCK = new Set(['p', 'li', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'section', 'article', 'figcaption', 'summary', 'address', 'header', 'footer', 'ul', 'ol', 'dl', 'table', 'pre', 'blockquote']);
/** Quotes repeat what a post said on purpose. */
const QUOTE = new Set(['blockquote']);
/** Shorter texts repeat by chance. */
const MIN_LENGTH = 30;
/** Twins (an element and its next sibling of the same kind with the same text) this long are one thing said twice. */
const MIN_TWIN = 8;
/** Table cells and code repeat values by nature. */
const VALUES = new Set(['td', 'th', 'pre', 'code']);
const CODE = new Set(['pre', 'code']);

/**
 * A class that shows or hides an element at some screen sizes only: Bootstrap's `d-md-none`,
 * `d-lg-block`, `hidden-xs`, `visible-sm`, Tailwind's `md:hidden`, Foundation's
 * `show-for-small-only`, and the plain `mobile-only`, `hide-desktop`.
 */
const SCREEN_SIZE_CLASS =
  /^(?:d-(?:sm|md|lg|xl|xxl)-[a-z-]+|(?:sm|md|lg|xl|2xl):(?:hidden|block|flex|grid|inline|inline-block|inline-flex|table|contents)|(?:hidden|visible)-(?:xs|sm|md|lg|xl|mobile|desktop|tablet)|(?:show|hide)-for-(?:small|medium|large)(?:-only|-up)?|hide-(?:mobile|desktop|tablet)|(?:mobile|desktop|tablet)-only|only-(?:mobile|desktop|tablet))$/i;

function screenSizeOnly(element: Element): boolean {
  return (element.getAttribute('class') ?? '').split(/\s+/).some((token) => SCREEN_SIZE_CLASS.test(token));
}

/** Elements whose text is a block of its own, for comparing two copies that wrap their blocks differently. */
const LEAF_BLOCKS = 'p, li, dt, dd, h1, h2, h3, h4, h5, h6, blockquote, figcaption';

/**
 * Removes, in place, each copy of a section that the page shows at some screen sizes only (a
 * desktop layout of a category's guide, its mobile copy as an accordion) when every block of
 * it is said elsewhere under `root`: only one of them is on screen at a time. The copies may
 * wrap their blocks differently, so blocks are compared, not the sections; the later copy then
 * has no twin left and stays.
 */
function dropScreenSizeCopies(root: Element): void {
  const elsewhere = new Map<string, Element[]>();
  for (const block of selectAll(root, LEAF_BLOCKS)) {
    const text = squash(block.textContent);
    if (text.length >= MIN_LENGTH) elsewhere.set(text, [...(elsewhere.get(text) ?? []), block]);
  }
  for (const copy of selectAll(root, '[class]')) {
    if (!root.contains(copy) || !screenSizeOnly(copy)) continue;
    const blocks = selectAll(copy, LEAF_BLOCKS).map((block) => squash(block.textContent)).filter((text) => text.length >= MIN_LENGTH);
    const said = (text: string) => (elsewhere.get(text) ?? []).some((block) => !copy.contains(block) && root.contains(block));
    if (blocks.length >= 2 && blocks.every(said)) copy.remove();
  }
}

/** A paragraph this long, said twice, is one text printed for two layouts, not a sentence repeated on purpose. */
const LONG_PARAGRAPH = 150;

/** Removes, in place, each long paragraph whose text an earlier one under `root` has (not a quote's). */
function dropRepeatedParagraphs(root: Element): void {
  const seen = new Map<string, Element>();
  for (const block of selectAll(root, LEAF_BLOCKS)) {
    if (!root.contains(block) || closestTag(block, QUOTE)) continue;
    const text = squash(block.textContent);
    if (text.length < LONG_PARAGRAPH) continue;
    const first = seen.get(text);
    if (!first) seen.set(text, block);
    // A list item and its only paragraph say the same once.
    else if (!first.contains(block)) block.remove();
  }
}

/** A line this long, worded a little differently from an earlier one, is the same text again. */
const NEAR_COPY = { minLength: 100, ownShare: 0.9, earlierShare: 0.5 };
/** Lines compared for near copies: a product's text is a few dozen paragraphs, and a page of thousands stays linear. */
const NEAR_COPY_LINES = 200;

const distinctWords = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/**
 * Whether nearly every word of `words` is in one earlier line that is not much longer: the same
 * text reworded ("Helichrysum oil (everlasting regeneration) – the jewel in the aroma..." after
 * "Helichrysum. Everlasting regeneration. The jewel in the aroma..."), not a short line whose
 * words a long paragraph happens to hold.
 */
function nearCopy(words: ReadonlySet<string>, earlier: readonly ReadonlySet<string>[]): boolean {
  return earlier.some((line) => {
    let shared = 0;
    for (const word of words) if (line.has(word)) shared++;
    return shared >= words.size * NEAR_COPY.ownShare && shared >= line.size * NEAR_COPY.earlierShare;
  });
}

/** A label and its colon opening a line. */
const FIELD = /^[^.:!?]{1,30}: /;

/** A sentence this long said twice is one text printed twice; shorter ones repeat by chance ("Free shipping."). */
const LONG_SENTENCE = 40;

const sentences = (text: string): string[] =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim())
    .filter(Boolean);

/**
 * Removes, in place, each line of text (a paragraph, a list item, a caption) that says again
 * what an earlier line under `root` said: every sentence of it at least `LONG_SENTENCE` long
 * was said (its shorter ones, a title's words, may be new), or it is a near copy of an earlier
 * line (see nearCopy). A shop prints a product's text twice, split or worded differently: an
 * FAQ's answers in the description and again in the FAQ, an ingredient's description in the
 * story and again in the ingredients tab, a badge's promise under every section. A line that
 * adds a sentence of its own stays.
 */
export function dropSaidSentences(root: Element): void {
  const said = new Set<string>();
  const earlier: Set<string>[] = [];
  let compared = 0;
  const line = oneLineOnce();
  for (const element of selectAll(root, '*')) {
    if (!root.contains(element) || !line(element) || (element.parentElement && element.parentElement !== root && line(element.parentElement))) continue;
    // The page's title names it once more by design, and quotes and code repeat on purpose.
    if (element.localName === 'h1' || closestTag(element, QUOTE) || closestTag(element, CODE)) continue;
    const text = squash(element.textContent);
    // A field ("Video Card: 128 MB, OpenGL 3.0") repeats on purpose, under each variant.
    if (FIELD.test(text)) continue;
    const parts = sentences(text);
    const long = parts.filter((sentence) => sentence.length >= LONG_SENTENCE);
    if (long.length === 0) continue;
    const words = text.length >= NEAR_COPY.minLength && compared++ < NEAR_COPY_LINES ? distinctWords(text) : null;
    if (parts.every((sentence) => sentence.length < LONG_SENTENCE || said.has(sentence)) || (words && nearCopy(words, earlier))) element.remove();
    else {
      for (const sentence of long) said.add(sentence);
      if (words) earlier.push(words);
    }
  }
}

/**
 * Removes, in place, every element of two or more blocks whose text an earlier element under
 * `root` has; with `paragraphs`, also every long paragraph said before (a product's description
 * in its tab and again in the mobile accordion, an article's intro in its hero and its body).
 */
export function dropRepeatedBlocks(root: Element, paragraphs = false): void {
  const elements = selectAll(root, '*');
  // How many blocks each element holds directly or through inline wrappers, children first.
  const blocks = new Map<Element, number>();
  for (let i = elements.length - 1; i >= 0; i--) {
    const element = elements[i]!;
    const parent = element.parentElement;
    if (!parent) continue;
    const add = BLOCK.has(element.localName) ? 1 : (blocks.get(element) ?? 0);
    if (add) blocks.set(parent, (blocks.get(parent) ?? 0) + add);
  }
  // Texts are compared only between elements of the same length, measured in one walk; an
  // element whose subtree lost something since is measured again.
  const measures = textMeasures(root);
  const changed = new Set<Element>();
  const remove = (element: Element) => {
    for (let at = element.parentElement; at && !changed.has(at); at = at.parentElement) changed.add(at);
    element.remove();
  };
  const lengthOf = (element: Element) => (changed.has(element) ? visibleLength(element) : measures.length(element));
  // Blocks are removed in document order, so each one reached is as it was measured: a text
  // whose length no other such element has cannot be said twice.
  const lengths = new Map<number, number>();
  for (const element of elements) if ((blocks.get(element) ?? 0) >= 2) lengths.set(measures.length(element), (lengths.get(measures.length(element)) ?? 0) + 1);
  const seen = new Map<string, Element>();
  for (const element of elements) {
    if ((blocks.get(element) ?? 0) < 2 || !root.contains(element) || closestTag(element, QUOTE)) continue;
    if (lengthOf(element) < MIN_LENGTH || (!changed.has(element) && lengths.get(measures.length(element))! < 2)) continue;
    const text = squash(element.textContent);
    const first = seen.get(text);
    if (!first) seen.set(text, element);
    // A wrapper and its only block say the same once.
    else if (!first.contains(element)) remove(element);
  }
  for (const element of elements) {
    const twin = element.previousElementSibling;
    if (twin?.localName !== element.localName || !root.contains(element) || closestTag(element, VALUES) || closestTag(element, QUOTE)) continue;
    const length = lengthOf(element);
    if (length >= MIN_TWIN && length === lengthOf(twin) && squash(element.textContent) === squash(twin.textContent)) remove(element);
  }
  dropScreenSizeCopies(root);
  if (paragraphs) dropRepeatedParagraphs(root);
}
