import { visibleLength } from './text-lines';
import { selectAll } from '../html/css-selectors';

/**
 * What a product page prints above the product's name: breadcrumbs, a promotion, a region
 * picker, an eyebrow line, a gallery's captions and counters, a "more from this series" link,
 * a marketplace's status line ("Ended", "Found on 4 wish lists"). The product's content opens
 * with its name, its `<h1>`.
 */

/** More than this share of the region above the name is the content laid out another way round. */
const MAX_SHARE = 0.5;
/** A paragraph this long above the name is the description, which some layouts print first. */
const PROSE = 150;

/** Removes, in place, what comes before the region's first non-empty `<h1>`, when it is little and holds no prose. */
export function dropBeforeTitle(root: Element): void {
  const title = selectAll(root, 'h1').find((h1) => visibleLength(h1) > 0);
  if (!title) return;
  const before: Element[] = [];
  let length = 0;
  for (let at: Element = title; at !== root && at.parentElement; at = at.parentElement) {
    for (let previous = at.previousElementSibling; previous; previous = previous.previousElementSibling) {
      before.push(previous);
      length += visibleLength(previous);
    }
  }
  if (length === 0 || length > visibleLength(root) * MAX_SHARE) return;
  const prose = (element: Element) => [element, ...selectAll(element, 'p')].some((p) => p.localName === 'p' && visibleLength(p) >= PROSE);
  if (before.some(prose)) return;
  for (const element of before) element.remove();
}
