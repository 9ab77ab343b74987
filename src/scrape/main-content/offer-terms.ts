import { oneLineOnce, visibleLength } from './text-lines';
import { selectAll } from '../html/css-selectors';

/**
 * The shop's fine print on a promotion: the same on every page that runs it ("Terms apply.",
 * "Offer valid Dec. 17 - Jan. 7", "Subject to credit approval. Minimum monthly payments
 * required.", a lease-to-own plan's "this is not a loan").
 */
const TERMS = new RegExp(
  [
    String.raw`\b(?:terms|terms and conditions|terms & conditions|exclusions|restrictions) (?:may )?apply\b`,
    String.raw`\bsubject to (?:credit )?approval\b`,
    String.raw`\bnot (?:combinable|valid) with (?:any )?other offers\b|\bcannot be combined with (?:any )?other offers\b`,
    String.raw`\boffer (?:valid|ends|expires)\b|\bwhile supplies last\b`,
    String.raw`\bminimum (?:monthly )?(?:purchase|payments?)\b.{0,20}\brequired\b|\bmonthly payments (?:are )?required\b`,
    String.raw`\bnot a loan\b|\boffer for a loan\b|\blease[- ]to[- ]own\b|\brent[- ]to[- ]own\b`,
  ].join('|'),
  'i',
);

/** A wall of terms is one long paragraph; longer is a page's text that mentions them. */
const MAX_PARAGRAPH = 2000;
/**
 * A block whose text is mostly terms is the promotion itself (its headline, its "Apply now", its
 * footnotes' headings), not an item that mentions an offer in a line: a product card keeps its
 * name and price.
 */
const MOSTLY = 0.6;

/**
 * Removes, in place, the paragraphs under `root` that state a promotion's terms, each with the
 * largest block around it that is mostly such terms (a promotion tile among the items, a page's
 * footnotes on its offers). Not a block holding the page's `<h1>` or half the region.
 */
export function dropOfferTerms(root: Element): void {
  const limit = visibleLength(root) * 0.5;
  const oneLine = oneLineOnce();
  // Paragraphs: elements of text and inline markup only, not inside another such element.
  const terms = selectAll(root, '*').filter((element) => {
    if (!oneLine(element) || (element.parentElement && oneLine(element.parentElement))) return false;
    const length = visibleLength(element);
    return length > 0 && length <= MAX_PARAGRAPH && TERMS.test(element.textContent ?? '');
  });
  if (terms.length === 0) return;
  // Each block's length and how much of it is terms, found once and kept up to date as blocks
  // go, and the blocks holding an h1: measuring every ancestor of every term anew would take
  // terms x page steps on a page of many offers.
  const ancestors = function* (element: Element) {
    for (let at = element.parentElement; at && at !== root; at = at.parentElement) yield at;
  };
  const length = new Map<Element, number>();
  const lengthOf = (element: Element) => length.get(element) ?? length.set(element, visibleLength(element)).get(element)!;
  const termsLength = new Map<Element, number>();
  for (const element of terms) {
    termsLength.set(element, lengthOf(element));
    for (const at of ancestors(element)) termsLength.set(at, (termsLength.get(at) ?? 0) + lengthOf(element));
  }
  const titled = new Set<Element>();
  for (const title of selectAll(root, 'h1')) for (const at of ancestors(title)) titled.add(at);
  // Terms that each of a run of like items prints are the items' own: a coupon's conditions.
  // (Paragraphs of terms side by side are one wall of fine print.)
  const itemsOwn = (element: Element) => {
    for (const at of ancestors(element)) {
      if (!at.parentElement) break;
      // Sibling by sibling: linkedom builds `children` anew on each read.
      for (let sibling = at.parentElement.firstElementChild; sibling; sibling = sibling.nextElementSibling) {
        if (sibling !== at && sibling.localName === at.localName && termsLength.has(sibling)) return true;
      }
    }
    return false;
  };
  for (const element of terms.filter((element) => !itemsOwn(element))) {
    if (!root.contains(element)) continue;
    let block = element;
    for (const parent of ancestors(element)) {
      if (lengthOf(parent) >= limit || titled.has(parent) || (termsLength.get(parent) ?? 0) < lengthOf(parent) * MOSTLY) break;
      block = parent;
    }
    const [removed, removedTerms] = [lengthOf(block), termsLength.get(block) ?? 0];
    for (const at of ancestors(block)) {
      length.set(at, lengthOf(at) - removed);
      termsLength.set(at, (termsLength.get(at) ?? 0) - removedTerms);
    }
    block.remove();
  }
}
