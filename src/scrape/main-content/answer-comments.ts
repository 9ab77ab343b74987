import { closest, selectAll } from '../html/css-selectors';
/**
 * The comments under a question or an answer on a Q&A page: schema.org's `Question` and
 * `Answer` take a `comment` (a `Comment`) for the short remarks readers leave on them ("Did you
 * try X?", "+1, this worked"), which Stack Exchange and other Q&A sites print under each post.
 * The thread is the question and its answers; the remarks are not answers. (A forum's replies,
 * which Discourse marks as comments of the topic's `DiscussionForumPosting`, stay.)
 */
const COMMENT = '[itemtype$="schema.org/Comment"]';
const POST = /schema\.org\/(?:Question|Answer)$/;

/** Removes, in place, the comments under `root` that belong to a question or an answer. */
export function dropAnswerComments(root: Element): void {
  for (const comment of selectAll(root, COMMENT)) {
    const owner = closest(comment.parentElement, '[itemscope]');
    if (owner && POST.test(owner.getAttribute('itemtype') ?? '')) comment.remove();
  }
}
