import { visibleLength } from './text-lines';
import { selectAll, selectOne } from '../html/css-selectors';

/** The fields of a facet: one choice each (a colour's checkbox, a sort order's radio, a size's select). */
const CHOICE = 'input[type="checkbox"], input[type="radio"], select';
/** Fewer choices are a form's own options ("Remember me", a gift-wrap box), not a panel of facets. */
const MIN_CHOICES = 4;
/**
 * A facet's text is its label ("Dark Brown", "Price: Low to High") and its group's title: a
 * few dozen characters a choice. A form with more to say per choice is a page, or an item, that
 * happens to hold a form (ASP.NET wraps whole pages in one).
 */
const LABEL_LENGTH = 60;

/**
 * Removes, in place, the filter panels of a grid or a list of results: forms of choices that
 * narrow the items ("Price Range", "Colour of Board", "Show only in stock products"), whatever
 * their class is named. They are the same on every category page of the site, not its items.
 * A form that links to other pages holds items (a card in its quick-add form, a grid in a
 * "compare selected" form), and one holding the page's `<h1>` holds its title: both stay. All
 * the panels together take less than half the region: more is what the page is for (a store's
 * index of part categories, each a checkbox).
 */
export function dropFilterPanels(root: Element): void {
  const forms = selectAll(root, 'form');
  if (forms.length === 0) return;
  let budget = visibleLength(root) * 0.5;
  const title = selectOne(root, 'h1');
  // parse5 never nests a form in a form, so removing one leaves the others in place.
  for (const form of [...forms]) {
    const choices = selectAll(form, CHOICE).length;
    if (choices < MIN_CHOICES || selectOne(form, 'a[href]') || (title && form.contains(title))) continue;
    const length = visibleLength(form);
    if (length > choices * LABEL_LENGTH || length >= budget) continue;
    budget -= length;
    form.remove();
  }
}
