import { squash } from './text-lines';
import { closestTag } from './closest-tag';
import { selectAll } from '../html/css-selectors';

/**
 * A reply's quote of a post the thread already shows: forum software copies the quoted post
 * into the reply (with a "Joe said:" citation inside the quote), so each quoted post would be
 * said twice, or more when several replies quote it. A quote of something the page does not
 * show (an earlier page of the thread, another site) is the only copy and stays.
 */
const QUOTE = 'blockquote';
const QUOTES = new Set([QUOTE]);
const CITE = new Set(['cite']);
/** Shorter pieces ("Thanks!", a name) are said again by chance. */
const MIN_LENGTH = 30;

/**
 * The quote's own pieces of text (not a nested quote's, nor its `<cite>` source line): text
 * nodes, so that a sentence split by a link or emphasis is still found in the post it copies.
 */
function quotedPieces(quote: Element): string[] {
  const pieces: string[] = [];
  const walker = quote.ownerDocument.createTreeWalker(quote, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || closestTag(parent, QUOTES) !== quote || closestTag(parent, CITE)) continue;
    const text = squash(node.textContent);
    if (text.length >= MIN_LENGTH) pieces.push(text);
  }
  return pieces;
}

/** Removes, in place, each outermost quote under `root` whose every piece of text the thread says outside its quotes. */
export function dropQuotedPosts(root: Element): void {
  const unquoted = root.cloneNode(true) as Element;
  for (const quote of selectAll(unquoted, QUOTE)) quote.remove();
  const said = squash(unquoted.textContent);
  for (const quote of selectAll(root, QUOTE)) {
    if (closestTag(quote.parentElement, QUOTES)) continue;
    const pieces = quotedPieces(quote);
    if (pieces.length > 0 && pieces.every((piece) => said.includes(piece))) quote.remove();
  }
}
