import { oneLineOnce, squash, visibleLength } from './text-lines';
import { matches, selectAll, selectOne } from '../html/css-selectors';

/**
 * Cards that advertise the site's other publications on a landing page: its latest posts,
 * whitepapers, case studies ("Insights", "Resources", "From our blog"). Each links to another
 * page and carries what marks a publication: its kind ("Blog", "Case Study", "Whitepaper"), its
 * date, its byline or its reading time. The page's offer is its own sections; these lead away.
 */

/** What a site publishes besides its offer, as a card's label names it. */
const KIND =
  /^(?:blog(?: post)?|article|news|press release|announcement|case study|(?:customer|client|success) story|white ?paper|(?:research |analyst )?report|research|e-?book|guide|webinar|podcast|video|survey|newsletter|insights?(?: paper)?|perspective|point of view|(?:product|solution) brief|infographic|data ?sheet|event)$/i;
/** A publication date on a line of its own ("Published March 2, 2026", "2 Mar 2026", "2026-03-02"). */
export const DATE = new RegExp(
  [
    String.raw`^(?:(?:published|posted|updated) (?:on )?)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2},? \d{4}$`,
    String.raw`^\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,? \d{4}$`,
    String.raw`^\d{1,2}[/.]\d{1,2}[/.]\d{4}\b|^\d{4}-\d{2}-\d{2}$`,
  ].join('|'),
  'i',
);
/** A byline ("By Jane Doe", "Written by Kyle Bonds on August 7, 2025") or a reading time ("7 min read"). */
const BYLINE = /^(?:(?:[Ww]ritten |[Pp]osted )?[Bb]y [A-Z][\p{L}'.-]+(?: [A-Z][\p{L}'.-]+)*\b|\d+ min(?:ute)?s? read$)/u;
/** A mark is a short line: a longer one is a card's text that happens to start so. */
const MARK_LENGTH = 80;

/** Two or more cards make a shelf of them; one is a link in the page's text. */
const MIN_CARDS = 2;
/** A card is a teaser: a few lines, not a section of the page. */
const CARD_LENGTH = 600;

function publicationMark(card: Element, lines: (element: Element) => boolean): boolean {
  if (selectOne(card, 'time')) return true;
  for (const element of [card, ...selectAll(card, '*')]) {
    if (!lines(element)) continue;
    const text = squash(element.textContent);
    if (text && text.length <= MARK_LENGTH && (KIND.test(text) || DATE.test(text) || BYLINE.test(text))) return true;
  }
  return false;
}

/** A card that leads to another page: it links somewhere other than a part of this page. */
function leadsAway(card: Element): boolean {
  return [...selectAll(card, 'a[href]'), ...(matches(card, 'a[href]') ? [card] : [])].some((link) => !(link.getAttribute('href') ?? '').startsWith('#'));
}

/**
 * Removes, in place, the runs of publication teasers under `root`: same-shaped siblings (tag
 * and class) most of which are short cards that lead away and carry a publication mark.
 */
export function dropPublicationTeasers(root: Element): void {
  const lines = oneLineOnce();
  for (const parent of [root, ...selectAll(root, '*')]) {
    if (parent !== root && !root.contains(parent)) continue;
    const shapes = new Map<string, Element[]>();
    for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
      const length = visibleLength(child);
      if (length === 0 || length > CARD_LENGTH) continue;
      const shape = `${child.localName}.${child.getAttribute('class') ?? ''}`;
      const same = shapes.get(shape);
      if (same) same.push(child);
      else shapes.set(shape, [child]);
    }
    for (const cards of shapes.values()) {
      if (cards.length < MIN_CARDS) continue;
      const teasers = cards.filter((card) => leadsAway(card) && publicationMark(card, lines));
      if (teasers.length >= MIN_CARDS && teasers.length * 2 >= cards.length) for (const card of cards) card.remove();
    }
  }
}
