import { dropLines } from './text-lines';
import { closestTag } from './closest-tag';

/**
 * What forum software prints around a thread's posts, not said by any poster: the thread's
 * header fields ("Thread starter", "Tags"), edit notices ("Edited August 26
 * by Joe Root"), the gap between two posts ("2 weeks later..."), who else is reading ("Recently
 * Browsing 0 members"), a moderator's mark ("JonB has marked this topic as solved on"), the
 * share bar's label, and the board's posting rules ("You may not post replies", "BB code is
 * On") and time zone ("All times are GMT +1. The time now is 14:01."), who liked a post, the
 * labels over code blocks and quotes ("Code: Select all", "Click to expand...") and BBCode tags
 * it failed to render ("[/quote]"). (What it prints
 * about each poster is `poster-stats.ts`'s.)
 */
const FURNITURE = new RegExp(
  [
    // Not the start date: the thread's date, which its first post may not repeat.
    String.raw`(?:thread starter|started by)\b:?(?:\s.{0,40})?`,
    String.raw`tags:?`,
    String.raw`share(?: this (?:thread|topic|post))?:?`,
    String.raw`(?:last )?edited\b.{0,40}\bby\s.{1,40}`,
    String.raw`\d+ (?:minutes?|hours?|days?|weeks?|months?|years?) later(?:\.{3}|…)?`,
    String.raw`recently browsing \d+ members?|no registered users viewing this \w+\.?|(?:users?|members?) (?:browsing|viewing) this (?:thread|topic|forum)\b.*`,
    String.raw`.{1,40} has marked this (?:topic|thread|question) as solved\b.*`,
    // Who reacted to a post (XenForo, SMF, vBulletin): "Joe likes this.", "Joe and 3 others like this."
    String.raw`.{1,60} likes this\.?|(?:.{1,60} and )?\d+ (?:others?|people|persons|users|members) like this\.?|1 (?:person|user|member) likes this\.?`,
    // The label and controls over a code block or a collapsed quote ("Code: Select all", "Click to expand...").
    String.raw`(?:code|quote)\s*:(?:\s*(?:select all|copy(?: to clipboard)?))?|select all|copy to clipboard|click to expand\.{0,3}|expand(?:\.{3}|…)?`,
    // BBCode the forum failed to render, alone on its line ("[quote=Joe]", "[/quote]").
    String.raw`\[/?(?:quote|code|spoiler|img|url)(?:[= ][^\]]{0,40})?\]`,
    // The board's posting rules box and footer (vBulletin, phpBB).
    String.raw`posting (?:rules|permissions)|forum jump|jump to`,
    String.raw`you (?:may not|cannot|can ?not) (?:post|reply|edit|delete|vote|upload|download|add)\b.{0,40}`,
    String.raw`you (?:may|can) (?:post|reply to|edit|delete|vote in|download|add) (?:new threads|new topics|replies|attachments|your posts|topics|polls|files)\b.{0,20}`,
    String.raw`(?:bb ?code|smilies|\[img\] code|\[video\] code|html code|trackbacks|pingbacks|refbacks)(?: are| is)? (?:on|off)`,
    String.raw`all times are (?:gmt|utc)\b.{0,60}`,
  ]
    .map((line) => `^(?:${line})$`)
    .join('|'),
  'i',
);
/** Code is the poster's, whatever it says. */
const CODE = new Set(['pre', 'code']);
/** Longer lines are sentences. */
const MAX_LENGTH = 80;

/** Removes, in place, the thread's furniture lines under `root`. */
export function dropThreadFurniture(root: Element): void {
  // Inside code, "[/quote]" or "Select all" is what the poster wrote.
  dropLines(root, MAX_LENGTH, (text, element) => FURNITURE.test(text) && !closestTag(element, CODE));
}
