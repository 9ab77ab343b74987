import { selectAll } from '../html/css-selectors';
/**
 * A shop theme that prints a product's raw custom fields (`cat_thumb_Navy:` an image URL,
 * `retail_price_tier3:`, `section_bg_color:`) as a definition list, hidden or not: keys a
 * program reads, not labels a person wrote. A spec sheet's terms are words ("Weight",
 * "Frame material"); a data dump's are identifiers joined by underscores.
 */

/** A term that starts with an identifier: `short_description`, `tab_Shipping and Returns`. */
const DATA_KEY = /^[a-z][a-z0-9]*_[a-z0-9_-]*/i;
/** A list this short is someone's table, whatever its terms look like. */
const MIN_TERMS = 4;
/** The share of terms that must be keys. */
const KEYS_SHARE = 0.5;

/** Removes, in place, the definition lists under `root` whose terms are mostly data keys. */
export function dropDataFields(root: Element): void {
  for (const list of selectAll(root, 'dl')) {
    if (!root.contains(list)) continue;
    const terms = selectAll(list, 'dt').map((term) => (term.textContent ?? '').trim());
    if (terms.length >= MIN_TERMS && terms.filter((term) => DATA_KEY.test(term)).length >= terms.length * KEYS_SHARE) list.remove();
  }
}
