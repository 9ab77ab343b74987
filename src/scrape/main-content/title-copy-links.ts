import { oneLine, squash, visibleLengthOnce, wholeLine } from './text-lines';
import { closestTag } from './closest-tag';
import { selectAll } from '../html/css-selectors';

/**
 * A card's overlay link: stretched over a product or story card so all of it is clickable, it
 * holds only a screen-reader label (`<a class="absolute"><span class="w_q67L">Title</span></a>`)
 * made of the card's title, maybe with its price, while the card prints that title on screen
 * outside any link. Read out, the card would say its title twice; the title stays.
 */

/** A title, not a short control label ("More", "Shop"). */
const MIN_TITLE = 15;
const LINK = new Set(['a']);
/** A block this short around the link is its card; a longer one is a section of cards. */
const CARD = 400;

/** Removes, in place, the links under `root` whose label their card says again outside a link. */
export function dropTitleCopyLinks(root: Element): void {
  // Lengths read before a removal may be a label's length too long: a card then reads as no card, and its link stays.
  const lengthOf = visibleLengthOnce();
  for (const link of selectAll(root, 'a[href]')) {
    if (!root.contains(link) || !labelSpanOnly(link) || !wholeLine(link)) continue;
    let card: Element | null = null;
    for (let at = link.parentElement; at && at !== root && lengthOf(at) <= CARD; at = at.parentElement) card = at;
    if (!card) continue;
    const label = squash(link.textContent);
    const lines = selectAll(card, '*')
      .filter((other) => !link.contains(other) && !other.contains(link) && closestTag(other, LINK) === null && oneLine(other))
      .map((line) => squash(line.textContent));
    if (lines.some((title) => saysAgain(label, title, lines))) link.remove();
  }
}

/**
 * The link's words are all in one styled span and it has nothing else (no image, no text of its
 * own): an overlay's screen-reader label, not a title link, which shows its words itself.
 */
function labelSpanOnly(link: Element): boolean {
  const span = link.firstElementChild;
  if (!span || span !== link.lastElementChild || span.localName !== 'span' || !span.hasAttribute('class')) return false;
  return squash(span.textContent) === squash(link.textContent);
}

/**
 * The label is a title line of the card, or one followed by words another of its lines says
 * (the price in "Title $169.99", which the card prints as "current price $169.99").
 */
function saysAgain(label: string, title: string, lines: readonly string[]): boolean {
  if (title.length < MIN_TITLE || !label.startsWith(title)) return false;
  const rest = label.slice(title.length).trim();
  return rest === '' || lines.some((line) => line !== title && line.includes(rest));
}
