import { visibleLength } from './text-lines';
import { closestLink } from './closest-tag';
import { closest } from '../html/css-selectors';

/**
 * A poster's name in a thread: a link to their profile page, as forum and Q&A software builds it
 * (XenForo `/members/joe.123/`, phpBB `memberlist.php?mode=viewprofile&u=2`, vBulletin
 * `member.php?u=2`, Discourse `/u/joe`, Invision `/profile/440-joe/`, Stack Exchange
 * `/users/12/joe`, SMF `?action=profile;u=2`), or a name schema.org marks as a post's author.
 * It is said once per post, so it repeats down the thread, and each time it says who wrote that post.
 */
const PROFILE_LINK = /(?:^|\/)(?:members?|users?|u|profiles?)\/[^/?#]|[?&;](?:mode=viewprofile|action=profile)\b|\bmember\.php\?(?:.*&)?u=\d/i;
const NAME_LENGTH = 40;

/** Whether a line of a thread, `text`, is a poster's name: not a mention ("@joe"), which is part of what a poster says. */
export function posterName(element: Element, text: string): boolean {
  if (text.length > NAME_LENGTH || text.startsWith('@')) return false;
  const link = closestLink(element);
  if (link && PROFILE_LINK.test(link.getAttribute('href') ?? '')) return !(link.textContent ?? '').trim().startsWith('@');
  // The author's name itself, not the rest of the poster's card that some software marks as the author.
  const property = closest(element, '[itemprop]');
  const name = property?.getAttribute('itemprop') === 'name' ? closest(property.parentElement, '[itemprop]') : property;
  return name?.getAttribute('itemprop') === 'author' && visibleLength(name) === text.length;
}
