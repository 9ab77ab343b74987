import { oneLineOnce, squash, visibleLength } from './text-lines';
import { closestTag } from './closest-tag';
import { matches, selectAll, selectOne } from '../html/css-selectors';

/**
 * Sections whose title says they are about something other than the page's subject (a
 * product's "Customer reviews", "You may also like", "Shipping & Returns"). Shops title them
 * with a heading element, or with a line of their own that opens the block: a styled `<p>` or
 * `<div>`, an accordion's button label.
 */

const HEADING = /^h[2-4]$/;

/** A title is short; a longer line that starts with "Related" is a sentence. */
const TITLE_LENGTH = 60;

/** Whether the elements before `element` in its parent show nothing (an icon, an empty rule). */
function opensParent(element: Element): boolean {
  for (let previous = element.previousElementSibling; previous; previous = previous.previousElementSibling) if (visibleLength(previous) > 0) return false;
  return true;
}

/** In a list's item, a table's cell or a link: one entry ("Q&A time included in each class") or one way out, not a block's title. */
const NOT_TITLE = new Set(['li', 'dt', 'dd', 'td', 'th', 'a']);

/**
 * A line of its own: one line of text in a parent laid out in blocks. Asked before its text is
 * read, so that only the outermost line reads each text.
 */
function ownLine(element: Element, lines: (element: Element) => boolean): boolean {
  const parent = element.parentElement;
  return parent !== null && lines(element) && !lines(parent);
}

/** A line of its own that opens its block (a label ending in a colon is a field's, "Recommended:" over a game's requirements). */
function titleLine(element: Element, text: string): boolean {
  return text.length <= TITLE_LENGTH && !text.endsWith(':') && closestTag(element, NOT_TITLE) === null && opensParent(element);
}

/**
 * The section a title opens: its wrappers while they open with it; when those wrappers hold
 * nothing but a heading (`<div class="section-header"><h2>`), or there are none, also the
 * siblings after them up to the next heading of its rank or higher. A title line has no rank
 * to end its section by, so its section is its wrappers only. Never more than `limit` characters.
 */
function titledSection(title: Element, root: Element, limit: number): Element[] {
  let section: Element = title;
  while (section.parentElement && section.parentElement !== root && opensParent(section) && visibleLength(section.parentElement) < limit) section = section.parentElement;
  let length = visibleLength(section);
  if (!HEADING.test(title.localName) || (section !== title && length > visibleLength(title))) return [section];
  const higher = Array.from({ length: Number(title.localName.slice(1)) }, (_, i) => `h${i + 1}`).join(',');
  const parts: Element[] = [section];
  for (let next = section.nextElementSibling; next; next = next.nextElementSibling) {
    if (matches(next, higher) || selectOne(next, higher)) break;
    length += visibleLength(next);
    if (length >= limit) break;
    parts.push(next);
  }
  return parts;
}

/** Removes, in place, the sections under `root` that a heading or a title line `titles` picks opens, each under `limit` characters. */
export function dropAsideSections(root: Element, titles: RegExp, limit: number): void {
  const lines = oneLineOnce();
  for (const element of selectAll(root, '*')) {
    if (!root.contains(element)) continue;
    const heading = HEADING.test(element.localName);
    if (!heading && !ownLine(element, lines)) continue;
    const text = squash(element.textContent);
    if (!titles.test(text) || !(heading || titleLine(element, text))) continue;
    for (const part of titledSection(element, root, limit)) part.remove();
  }
}
