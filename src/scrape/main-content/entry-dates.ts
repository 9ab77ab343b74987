import { DATE } from './publication-teasers';
import { dropLines, visibleLength, wholeLine } from './text-lines';

/**
 * A listing's entries each print when they were published, how long ago, or how long they take
 * to read, on a line of their own ("Feb 19, 2026", "7 hours ago", "4 min read"). The entries'
 * headlines and summaries are what a reader scans the page for; these stamps repeat once per
 * entry and say nothing about it (most WCXB listing truths leave them out).
 */
const AGE = /^\d+\s*(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|d|weeks?|w|months?|mos?|years?|yrs?|y)\s+ago$/i;
const READING_TIME = /^\d+\s*min(?:ute)?s?\s+read$/i;
const MAX_LENGTH = 40;

/** Only the stamp: a date that opens a line ("12/09/2025 | Chalkbeat") or ends a byline ("By Jane Doe • Oct. 27, 2025") is part of what that line says. */
const stampOnly = (text: string): boolean => (DATE.test(text) && /\d$/.test(text)) || AGE.test(text) || READING_TIME.test(text);

/** Removes, in place, the lines under `root` that are only an entry's date, age or reading time. */
export function dropEntryDates(root: Element): void {
  dropLines(root, MAX_LENGTH, (text, element) => {
    // A custom element (`<relative-time>`) is inline, as CSS draws it: its line is its parent's ("Updated Mar 5, 2026").
    const line = element.localName.includes('-') && element.parentElement ? element.parentElement : element;
    return stampOnly(text) && wholeLine(line) && visibleLength(line) === text.length;
  });
}
