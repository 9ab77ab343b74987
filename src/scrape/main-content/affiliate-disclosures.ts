import { dropLines, wholeLine } from './text-lines';

/**
 * The notice a publisher prints on its pages that link to shops ("Disclosure: This post contains
 * affiliate links. If you use them to make a purchase, we may earn a small commission — at no
 * extra cost to you."): the same on every such page, about the site's income, not the subject.
 * Not in threads, whose posters may talk about affiliate links.
 */
const DISCLOSURE = /\b(?:affiliate (?:links?|commissions?|programs?)|(?:earn|receive|get) (?:a |an )?(?:small )?(?:affiliate )?commissions?|at no (?:extra|additional) cost to you)\b/i;
/** A notice is a short paragraph; a longer one is an article discussing affiliate marketing. */
const MAX_LENGTH = 400;

/** Removes, in place, the affiliate disclosures under `root`. */
export function dropAffiliateDisclosures(root: Element): void {
  // A whole paragraph, not a parenthesis inside one.
  dropLines(root, MAX_LENGTH, (text, element) => DISCLOSURE.test(text) && wholeLine(element));
}
