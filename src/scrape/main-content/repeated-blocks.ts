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
const QUOTE = 'blockquote';
/** Shorter texts repeat by chance. */
const MIN_LENGTH = 30;
/** Twins (an element and its next sibling of the same kind with the same text) this long are one thing said twice. */
const MIN_TWIN = 8;
/** Table cells and code repeat values by nature. */
const VALUES = 'td, th, pre, code';

const squash = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** Removes, in place, every element of two or more blocks whose text an earlier element under `root` has. */
export function dropRepeatedBlocks(root: Element): void {
  const elements = [...root.querySelectorAll('*')];
  // How many blocks each element holds directly or through inline wrappers, children first.
  const blocks = new Map<Element, number>();
  for (let i = elements.length - 1; i >= 0; i--) {
    const element = elements[i]!;
    const parent = element.parentElement;
    if (!parent) continue;
    const add = BLOCK.has(element.localName) ? 1 : (blocks.get(element) ?? 0);
    if (add) blocks.set(parent, (blocks.get(parent) ?? 0) + add);
  }
  const seen = new Map<string, Element>();
  for (const element of elements) {
    if ((blocks.get(element) ?? 0) < 2 || !root.contains(element) || element.closest(QUOTE)) continue;
    const text = squash(element.textContent);
    if (text.length < MIN_LENGTH) continue;
    const first = seen.get(text);
    if (!first) seen.set(text, element);
    // A wrapper and its only block say the same once.
    else if (!first.contains(element)) element.remove();
  }
  for (const element of elements) {
    const twin = element.previousElementSibling;
    if (twin?.localName !== element.localName || !root.contains(element) || element.closest(VALUES) || element.closest(QUOTE)) continue;
    const text = squash(element.textContent);
    if (text.length >= MIN_TWIN && text === squash(twin.textContent)) element.remove();
  }
}
