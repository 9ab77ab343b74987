import { squash } from './text-lines';
import { selectAll } from '../html/css-selectors';

/**
 * A link that takes its name from another element (`aria-labelledby`) and prints the same words:
 * a card's overlay link, stretched over the card so that all of it is clickable and named by the
 * card's title. Read out, the card would say its title twice; the title stays.
 */

/** An overlay names one to three elements; a link that lists more is not one. */
const MAX_NAMES = 4;

/** Removes, in place, the links under `root` whose words are those of the elements that name them. */
export function dropBorrowedLabels(root: Element): void {
  const links = selectAll(root, 'a[aria-labelledby]');
  if (links.length === 0) return;
  // One pass over the ids (a lookup per link would walk the document each time); the first
  // element with an id is the one it names, as for getElementById.
  const byId = new Map<string, Element>();
  for (const element of selectAll(root, '[id]')) {
    const id = element.getAttribute('id')!;
    if (!byId.has(id)) byId.set(id, element);
  }
  // Each name's words read once, however many links it names.
  const words = new Map<Element, string>();
  const wordsOf = (element: Element) => words.get(element) ?? words.set(element, squash(element.textContent)).get(element)!;
  for (const link of links) {
    const ids = [...new Set((link.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean))];
    if (ids.length === 0 || ids.length > MAX_NAMES) continue;
    const names = ids.map((id) => byId.get(id));
    // The words must stay printed elsewhere: not by the link itself, nor by a name this pass removed.
    if (names.some((name) => name === undefined || link.contains(name) || name.contains(link) || !root.contains(name))) continue;
    const text = squash(link.textContent);
    if (text && text === names.map((name) => wordsOf(name!)).join(' ')) link.remove();
  }
}
