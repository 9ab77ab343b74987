import { dropLines } from './text-lines';

/**
 * Lines a page prints in place of something else: an ad slot's label, a spinner's "Loading...".
 * (A `<video>`'s "your browser does not support" fallback goes with the video element.)
 */
const FILLER =
  /^(?:(?:advertisement|advertising|sponsored|ad)(?:\s*[-–:(].*(?:continue|continues|reading|below|after|registration|learn more).*)?:?|(?:story|article) continues below(?: this)? advertisement|(?:loading|please wait)\s*(?:\.\.\.|…)?(?:\s*(?:loading|please wait)\s*(?:\.\.\.|…)?)*)$/i;
const MAX_LENGTH = 60;

/** Removes, in place, the filler lines under `root`. */
export function dropFillerLines(root: Element): void {
  dropLines(root, MAX_LENGTH, (text) => FILLER.test(text));
}
