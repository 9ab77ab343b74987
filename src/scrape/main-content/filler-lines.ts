import { dropLines } from './text-lines';
import { closestTag } from './closest-tag';

/**
 * Lines a page prints in place of something else: an ad slot's label, a spinner's "Loading...".
 * (A `<video>`'s "your browser does not support" fallback goes with the video element.)
 */
const FILLER =
  /^(?:(?:advertisement|advertising|sponsored|ad)(?:\s*[-–:(].*(?:continue|continues|reading|below|after|registration|learn more).*)?:?|(?:story|article) continues below(?: this)? advertisement|(?:loading|please wait)\s*(?:\.\.\.|…)?(?:\s*(?:loading|please wait)\s*(?:\.\.\.|…)?)*)$/i;

/**
 * What a gallery, a carousel or a player prints over its media: a slide counter ("1 of 23",
 * "2 / 4", "Item 3", "Picture 1 of 1") and a player's time ("0:01/0:56"). The output has no
 * media for them to count.
 */
const COUNTER = /^(?:(?:item|slide|image|picture|photo|video) \d+(?: ?(?:of|\/) ?\d+)?|\d+ ?(?:of|\/) ?\d+|\d{1,2}:\d{2} ?\/ ?\d{1,2}:\d{2})$/i;

/**
 * Controls that show more of the page or leave it for an app: "Show more + Show less –",
 * "View full details", "See all details", "Open in Desktop App".
 */
const CONTROL = /^(?:(?:show|view|see|read) (?:more|less)(?: ?[+–-])?(?: (?:show|view|see|read) (?:more|less)(?: ?[+–-])?)?|(?:view|see) (?:all |full )?(?:[a-z]+ )?details|open in (?:the )?(?:desktop |mobile )?app)$/i;

const MAX_LENGTH = 60;

/** Removes, in place, the filler lines under `root`. */
export function dropFillerLines(root: Element): void {
  dropLines(root, MAX_LENGTH, (text) => FILLER.test(text));
}

/** Removes, in place, the media counters and show-more controls under `root`. */
export function dropMediaCounters(root: Element): void {
  dropLines(root, MAX_LENGTH, (text) => COUNTER.test(text) || CONTROL.test(text));
}

/**
 * A share widget's embed code: the `<iframe>` tag a reader copies to put the player on their own
 * site ("Embed"), printed as a line of text. Not a code block (`<pre>`), where a page teaches it.
 */
const EMBED_CODE = /^<(?:iframe|embed|object)\b[^>]*>(?:\s*<\/(?:iframe|embed|object)>)?$/i;
const EMBED_LENGTH = 1000;
const PRE = new Set(['pre']);
const CODE = new Set(['pre', 'code']);

/** Removes, in place, the lines under `root` that are a player's embed code. */
export function dropEmbedCodes(root: Element): void {
  dropLines(root, EMBED_LENGTH, (text, element) => EMBED_CODE.test(text) && closestTag(element, PRE) === null);
}

/**
 * Data a page leaves in its markup for its scripts: a JSON object or array as a block's whole
 * text (a buy box's price table in a hidden `<div>` too long to pass for a hidden label). No
 * reader is shown it; a code block (`<pre>`, `<code>`) that teaches the format is kept.
 */
const SCRIPT_DATA = /^(?:\{\s*"[^]*\}|\[\s*[{[][^]*\])$/;

function scriptData(text: string): boolean {
  if (!SCRIPT_DATA.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Removes, in place, the lines under `root` whose whole text is JSON data for scripts. */
export function dropScriptData(root: Element): void {
  dropLines(root, Infinity, (text, element) => scriptData(text) && closestTag(element, CODE) === null);
}
