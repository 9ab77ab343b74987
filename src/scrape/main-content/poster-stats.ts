import { dropLines, oneLine } from './text-lines';
import { closestTag } from './closest-tag';

/**
 * What forum software prints beside every post about its poster and its standing: profile
 * fields ("Joined: Mar 2016", "Posts: 701", "Location: Kent"), counters ("8,583", "#3",
 * "7 Likes", "1.3K views"). The thread is what the posters said, with who said it and when; the
 * author's name and the post's date are lines of their own and stay.
 */

/** A profile field, label first. */
const PROFILE_FIELD =
  /^(?:joined|join date|registered|member since|posts|messages|reaction score|reactions|points|trophy points|likes(?: received)?|reputation|karma|solutions|credits|location|age|gender|occupation|last (?:edited|online|seen|active)|status|rank)\b\s*:?(?:\s.{0,40})?$/i;
/** A poster's title: "Registered User", "Gold Member", "Moderator". */
const TITLE = /^(?:[\p{L}-]+ ){0,2}(?:member|user|moderator|mod|administrator|admin|staff)$/iu;
/** A count of something, or a number alone (a post's number, a score). */
const COUNTER = /^(?:#?\d[\d,.]*\s*[kKmM]?(?:\s+(?:posts?|replies|views|likes?|messages|reactions?|points|followers|participants|posters|watching|votes?|answers?|comments?))?)$/i;
/** Longer lines are sentences, not stats. */
const MAX_LENGTH = 60;

/** Code holds numbers by nature, and so does a table cell that is one value. */
const CODE = new Set(['pre', 'code']);
const CELL = new Set(['td', 'th']);

function isStat(text: string, element: Element): boolean {
  if (!(PROFILE_FIELD.test(text) || COUNTER.test(text) || TITLE.test(text)) || closestTag(element, CODE)) return false;
  const cell = closestTag(element, CELL);
  return !cell || !oneLine(cell);
}

/** Removes, in place, the lines under `root` that are a poster's stats; a field's label in a `<dt>` takes its values along. */
export function dropPosterStats(root: Element): void {
  dropLines(root, MAX_LENGTH, (text, element) => {
    if (!isStat(text, element)) return false;
    if (element.localName === 'dt') for (let value = element.nextElementSibling; value?.localName === 'dd'; value = element.nextElementSibling) value.remove();
    return true;
  });
}
