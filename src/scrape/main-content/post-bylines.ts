import { HAS_DATE } from './page-structure';
import { posterName } from './poster-names';
import { answeredOnce, squash, visibleLength } from './text-lines';
import { closest, selectAll, selectOne } from '../html/css-selectors';

/**
 * A post's byline links: the poster's name, to their profile, and the post's date, to the post
 * itself. They say who wrote the post and when, not where to go, however little else their block
 * holds (XenForo's name section, its date header, phpBB's date line).
 */

/** A post: its `<article>`, its schema.org item, or a block its class names a post (phpBB's `post`, XenForo 1's `message`). */
const POST = 'article, [itemtype*="Comment"], [itemtype*="Answer"], [itemtype*="Question"], .post, .message';
/** Longer link texts are titles that mention a date, not a date. */
const DATE_LINK = 40;

/** A link that is a post's date: a `<time>`, or a date's words (phpBB's "Sun Dec 17, 2023 11:23 am"). */
function postDate(link: Element): boolean {
  return selectOne(link, 'time') !== null || (visibleLength(link) <= DATE_LINK && HAS_DATE.test(link.textContent ?? ''));
}

/** A link that names a poster or dates a post; not an avatar, whose text is at most its initial. */
function bylineLink(link: Element): boolean {
  const text = squash(link.textContent);
  return text.length >= 2 && (postDate(link) || posterName(link, text));
}

/** A post's first name link and first date link. */
interface PostBylines {
  name: Element | undefined;
  date: Element | undefined;
}

/**
 * Whether a link is its post's byline: the post's first link of its kind (later ones are who
 * reacted, who is quoted), whose words the post says once (not a phone layout's copy of the
 * author pane, once the pruning has taken that copy's block). Each link is answered once, and a
 * post's first links are found once, while they are in it: a post of many links would otherwise
 * be read again for each.
 */
export function postBylines(): (link: Element) => boolean {
  const posts = new Map<Element, PostBylines>();
  const firstLinks = (post: Element): PostBylines => {
    let found = posts.get(post);
    if (!found || [found.name, found.date].some((link) => link && !post.contains(link))) {
      const links = selectAll(post, 'a[href]').filter(bylineLink);
      posts.set(post, (found = { name: links.find((link) => !postDate(link)), date: links.find(postDate) }));
    }
    return found;
  };
  return answeredOnce((link) => {
    const post = closest(link, POST);
    if (!post || !bylineLink(link)) return false;
    const { name, date } = firstLinks(post);
    return (postDate(link) ? date : name) === link && squash(post.textContent).split(squash(link.textContent)).length === 2;
  });
}
