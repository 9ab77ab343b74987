import { visibleLength } from './text-lines';

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
 * Not a form that holds half the region.
 */
export function dropFilterPanels(root: Element): void {
  const forms = [...root.querySelectorAll('form')];
  if (forms.length === 0) return;
  // A form of choices that is half the region is what the page is for (a store's index of part categories, each a checkbox).
  const limit = visibleLength(root) * 0.5;
  for (const form of forms) {
    if (!root.contains(form)) continue;
    const choices = form.querySelectorAll(CHOICE).length;
    const length = choices >= MIN_CHOICES ? visibleLength(form) : Infinity;
    if (length <= choices * LABEL_LENGTH && length < limit) form.remove();
  }
}
