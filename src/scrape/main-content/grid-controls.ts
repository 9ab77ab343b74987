import { dropLines } from './text-lines';

/**
 * The controls of a grid or a list of results, the same on every category page of the site:
 * result counts, sort and filter toggles, page pickers ("1,072 results", "Sort: Best Match",
 * "Filter & Sort", "Showing 1-24 of 300", "Page 1 of 77"). Class names catch most facet panels;
 * these are the lines they leave.
 */
const CONTROL = new RegExp(
  [
    String.raw`^(?:loaded |showing )?\(?\d[\d,]* (?:results?|items?|products?|matches)(?: found)?\)?$`,
    String.raw`^(?:results?|items?|products?) \(\d[\d,]*\)$`,
    String.raw`^(?:sort|sort by|sort order|filter|filters|filter by|filter & sort|filter and sort|refine|refine by|refine your results|view|per page|items per page|clear all|clear filters|apply filters)(?:\s*[:|].{0,30})?$`,
    String.raw`^showing \d[\d,]*\s*[-–]\s*\d[\d,]* of \d[\d,]*`,
    String.raw`^page\s*\d*\s*of\s*\d+$`,
  ].join('|'),
  'i',
);
const MAX_LENGTH = 60;

/** Removes, in place, the lines under `root` that are a grid's controls. */
export function dropGridControls(root: Element): void {
  dropLines(root, MAX_LENGTH, (text) => CONTROL.test(text));
}
