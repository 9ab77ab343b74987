import type { PageStructure } from './page-type';
import { squash, squashedLength } from './text-lines';
import { selectOne } from '../html/css-selectors';

const PRICE = /(?:[$€£¥₹]\s?\d[\d.,]*|\d[\d.,]*\s?(?:€|\$|£|kr|zł|USD|EUR|GBP))(?!\w)/g;
const CART = /add to (?:cart|bag|basket|trolley)|buy now|in den warenkorb|ajouter au panier|añadir al carrito|aggiungi al carrello|in winkelwagen/i;
const DATE = /\b(?:\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},? \d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}\/\d{2,4}|\d+ (?:minutes?|hours?|days?|weeks?|months?|years?) ago)\b/gi;
/** The same, for testing one text (a global regex's test() carries lastIndex over). */
const HAS_PRICE = new RegExp(PRICE.source);
export const HAS_DATE = new RegExp(DATE.source, 'i');
const PROSE_PARAGRAPH = 150;
/** A link label of this many words reads as a story's or a post's title, not a menu entry. */
const HEADLINE_WORDS = { min: 5, max: 30 };
/** The site's menus, banner and footer, which every page of a site repeats, by element and by role. */
const CHROME_ELEMENTS = new Set(['nav', 'header', 'footer', 'aside']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary']);
const ITEM_TEXT = 20;

/** Elements that repeat inside any prose; a run of them is not a run of items. */
const INLINE_OR_PROSE = new Set(['p', 'br', 'span', 'a', 'em', 'strong', 'b', 'i', 'code', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'td', 'th', 'dd', 'dt', 'option']);

const isChrome = (element: Element) => CHROME_ELEMENTS.has(element.localName) || CHROME_ROLES.has(element.getAttribute('role') ?? '');

/** A link to another page whose label is a headline's length. */
function isHeadline(link: Element, label: string): boolean {
  const words = label.split(' ').length;
  const href = link.getAttribute('href');
  return words >= HEADLINE_WORDS.min && words <= HEADLINE_WORDS.max && !!href && !href.startsWith('#');
}

/** Same-shaped siblings: tag and class list. */
function shape(element: Element): string {
  return `${element.localName}.${element.getAttribute('class') ?? ''}`;
}

/** Measures the cleaned page in one walk (iterative: real pages nest deep). */
export function measureStructure(root: Element): PageStructure {
  const s: PageStructure = { codeBlocks: 0, proseLength: 0, textLength: 0, prices: 0, cartActions: 0, repeatedItems: 0, itemsTextLength: 0, pricedItems: 0, datedItems: 0, dates: 0, headlineLinks: 0, headlinesLength: 0 };
  // Each element with whether it lies in the site's chrome.
  const stack: [Element, boolean][] = [[root, false]];
  while (stack.length > 0) {
    const [element, inChrome] = stack.pop()!;
    const groups = new Map<string, number>();
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const text = (child as Text).data;
        s.textLength += squashedLength(text);
        s.prices += text.match(PRICE)?.length ?? 0;
        s.dates += text.match(DATE)?.length ?? 0;
      } else if (child.nodeType === 1) {
        const el = child as Element;
        const chrome = inChrome || isChrome(el);
        stack.push([el, chrome]);
        switch (el.localName) {
          case 'pre':
            s.codeBlocks++;
            break;
          case 'p': {
            const length = squashedLength(el.textContent);
            if (length >= PROSE_PARAGRAPH) s.proseLength += length;
            break;
          }
          case 'time':
            s.dates++;
            break;
          case 'button':
          case 'a':
          case 'input': {
            const label = el.localName === 'input' ? (el.getAttribute('value') ?? '') : (el.textContent ?? '');
            if (CART.test(label)) s.cartActions++;
            const headline = el.localName === 'a' ? squash(label) : '';
            if (headline && !chrome && isHeadline(el, headline)) {
              s.headlineLinks++;
              s.headlinesLength += headline.length;
            }
            break;
          }
        }
        if (el.firstChild && !INLINE_OR_PROSE.has(el.localName)) groups.set(shape(el), (groups.get(shape(el)) ?? 0) + 1);
      }
    }
    for (const [key, count] of groups) {
      if (count <= s.repeatedItems || count < 3) continue;
      // Only groups whose members carry text are items; a row of icons is not.
      const items = { count: 0, length: 0, priced: 0, dated: 0 };
      for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
        if (shape(child) !== key) continue;
        const text = squash(child.textContent);
        if (text.length < ITEM_TEXT) continue;
        items.count++;
        items.length += text.length;
        if (HAS_PRICE.test(text)) items.priced++;
        if (HAS_DATE.test(text) || selectOne(child, 'time')) items.dated++;
      }
      if (items.count > s.repeatedItems) {
        [s.repeatedItems, s.itemsTextLength, s.pricedItems, s.datedItems] = [items.count, items.length, items.priced, items.dated];
      }
    }
  }
  return s;
}
