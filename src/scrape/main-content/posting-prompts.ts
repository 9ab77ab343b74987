import { oneLine, visibleLength, wholeLine } from './text-lines';
import { selectAll, selectOne } from '../html/css-selectors';

/**
 * A thread's invitations to post elsewhere on the board: a box around a link to the page where
 * one asks a new question or starts a topic ("Start asking to get answers. Ask question",
 * "Have a question? Start a new topic"). It is the board's, not the thread's, and shows on
 * every thread.
 */
/** Stack Exchange `/questions/ask`, Discourse `/new-topic`, XenForo `post-thread`, phpBB `posting.php?mode=post`, vBulletin `?do=newthread`. */
const NEW_POST = /\/(?:questions\/)?ask(?:[/?#]|$)|\/(?:new-?(?:topic|thread|question|discussion)s?|post-thread)(?:[/?#]|$)|[?&](?:mode=post|do=newthread)\b/i;
/** The box around the link: its label and a line or two, with no post in it. */
const PROMPT_BOX = 300;
/** A line longer than this is a post's paragraph, not the prompt's pitch. */
const PROMPT_LINE = 100;
/** A poster's byline in the box means it holds a post. */
const BYLINE = 'time, [itemprop="author"]';

function promptBox(link: Element, root: Element): Element | null {
  if (!NEW_POST.test(link.getAttribute('href') ?? '') || !wholeLine(link)) return null;
  let box = link;
  while (box.parentElement && box.parentElement !== root && visibleLength(box.parentElement) <= PROMPT_BOX) box = box.parentElement;
  const longLine = [box, ...selectAll(box, '*')].some((element) => oneLine(element) && visibleLength(element) > PROMPT_LINE);
  return selectOne(box, BYLINE) || longLine ? null : box;
}

/** Removes, in place, the boxes under `root` that invite the reader to start a question or topic of their own. */
export function dropPostingPrompts(root: Element): void {
  for (const link of selectAll(root, 'a[href]')) {
    if (!root.contains(link)) continue;
    promptBox(link, root)?.remove();
  }
}
