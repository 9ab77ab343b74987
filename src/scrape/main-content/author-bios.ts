import { jsonLdNodes } from './schema-types';
import { squash, visibleLength } from './text-lines';
import { selectAll, selectOne } from '../html/css-selectors';

/**
 * The author's bio box under a post ("Jean-Luc started CNX Software in 2010..."): the same under
 * each of their posts, about them rather than the page's subject. Class names catch the common
 * ones (`author-bio`); these are found by what the page says of its author in schema.org terms,
 * whatever the box is called: a microdata Person that says more than a byline does, or the block
 * that shows a JSON-LD Person's description.
 */

/** A byline (name, title, date) is shorter; a bio is sentences. */
const BIO_LENGTH = 100;
/** Around the bio, its box holds the author's name, title and links. */
const BOX_EXTRA = 200;
/** The start of a description that identifies the block showing it. */
const KEY_LENGTH = 60;
/** An author sits a few levels down: in `@graph`, in the article, in its `author` list. */
const MAX_DEPTH = 6;

const PERSON_ITEM = /(?:^|\/)Person$/i;

/** Descriptions of the people in the page's JSON-LD (authors, editors), as plain text. */
export function personDescriptions(jsonLd: readonly unknown[]): string[] {
  const found: string[] = [];
  for (const record of jsonLdNodes(jsonLd, (node) => Object.values(node), MAX_DEPTH)) {
    if (!([] as unknown[]).concat(record['@type']).includes('Person') || typeof record.description !== 'string') continue;
    // Some sites put the bio's HTML in the description.
    const text = squash(record.description.replace(/<[^>]*>/g, ' '));
    if (text.length >= BIO_LENGTH) found.push(text);
  }
  return found;
}

/** The innermost element under `root` whose text holds `key`. */
function innermostHolding(root: Element, key: string): Element | null {
  let at: Element | null = squash(root.textContent).includes(key) ? root : null;
  while (at) {
    let next: Element | null = null;
    for (let child = at.firstElementChild; child && !next; child = child.nextElementSibling) if (squash(child.textContent).includes(key)) next = child;
    if (!next) return at;
    at = next;
  }
  return null;
}

/**
 * Removes, in place, the author bio boxes under `root`: microdata Persons longer than a byline,
 * and the box around each of `descriptions` shown on the page. A box that holds the page's title
 * or half its text is the page itself (a profile page), and stays.
 */
export function dropAuthorBios(root: Element, descriptions: readonly string[]): void {
  const rootLength = visibleLength(root);
  const title = selectOne(root, 'h1');
  const drop = (box: Element) => {
    if (box !== root && !(title && box.contains(title)) && visibleLength(box) < rootLength * 0.5) box.remove();
  };
  for (const person of selectAll(root, '[itemtype]')) {
    if (root.contains(person) && PERSON_ITEM.test((person.getAttribute('itemtype') ?? '').trim()) && visibleLength(person) >= BIO_LENGTH) drop(person);
  }
  for (const description of descriptions) {
    const shown = innermostHolding(root, description.slice(0, KEY_LENGTH));
    if (!shown || shown === root) continue;
    let box = shown;
    for (let up = box.parentElement; up && up !== root && !(title && up.contains(title)) && visibleLength(up) <= description.length + BOX_EXTRA; up = up.parentElement) box = up;
    drop(box);
  }
}
