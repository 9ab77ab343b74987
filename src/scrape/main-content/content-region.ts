import { dropAffiliateDisclosures } from './affiliate-disclosures';
import { dropAnswerComments } from './answer-comments';
import { dropAsideSections } from './aside-sections';
import { dropAuthorBios, personDescriptions } from './author-bios';
import { closestLink, closestTag } from './closest-tag';
import { dropBeforeTitle } from './before-title';
import { dropBorrowedLabels } from './borrowed-labels';
import { dropDataFields } from './data-fields';
import { dropEntryDates } from './entry-dates';
import { dropEmbedCodes, dropFillerLines, dropMediaCounters, dropScriptData } from './filler-lines';
import { dropFilterPanels } from './filter-panels';
import { dropGridControls } from './grid-controls';
import { dropOfferTerms } from './offer-terms';
import { postBylines } from './post-bylines';
import { posterName } from './poster-names';
import { dropPostingPrompts } from './posting-prompts';
import { dropPosterStats } from './poster-stats';
import { dropPublicationTeasers } from './publication-teasers';
import { dropPickers, dropPolicyParagraphs, dropPurchaseLines } from './purchase-lines';
import { dropQuotedPosts } from './quoted-posts';
import { dropRepeatedBlocks, dropSaidSentences } from './repeated-blocks';
import { dropSignInPrompts } from './sign-in-prompts';
import { textMeasures, visibleLength, type TextMeasures } from './text-lines';
import { dropThreadFurniture } from './thread-furniture';
import { dropTitleCopyLinks } from './title-copy-links';
import { closest, selectAll, selectOne } from '../html/css-selectors';

/**
 * The page's content region: the main landmark when there is one, with page chrome pruned
 * (landmarks, hidden parts, controls, chrome-named blocks and link-dense menus). Unlike
 * Readability it keeps every section of the region, which is what multi-part pages need: all
 * posts of a thread, every item of a grid, every section of a landing page.
 */

const CHROME_LANDMARKS = [
  'nav',
  'header',
  'footer',
  'aside',
  'dialog',
  'form[role="search"]',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="complementary"]',
  '[role="search"]',
  '[role="dialog"]',
  '[role="alert"]',
  'select',
  'input',
  // What shows where a player could not load; the player itself converts to nothing.
  'video',
  'audio',
  'textarea',
  'label',
].join(',');

/**
 * A `<header>` inside an article or section is that section's heading (a card's headline and
 * standfirst), not the page's banner: HTML-AAM maps it to the banner landmark only when it is
 * scoped to the body.
 */
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);
function sectionHeader(element: Element): boolean {
  return element.localName === 'header' && !element.hasAttribute('role') && closestTag(element.parentElement, SECTIONING) != null;
}

/**
 * In a thread, an unnamed `<aside>` inside a post's `<article>` is the post's author column
 * (Invision Community: avatar, name, group, stats, the poster's rig): HTML-AAM maps an aside
 * scoped to sectioning content to a landmark only when it is named. Its heading, the poster's
 * name, is the post's author line; the rest is the poster's card. (One named as chrome is
 * not: XenForo's `message-signature`.)
 */
const ARTICLE = new Set(['article']);
function postAuthor(element: Element): Element | null {
  if (element.localName !== 'aside' || element.hasAttribute('role') || element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby')) return null;
  if (closestTag(element.parentElement, ARTICLE) == null || chromeNamed(element)) return null;
  return selectOne(element, 'h1, h2, h3, h4, h5, h6');
}

/**
 * Out of sight: templates, data for scripts, closed menus, hidden by style, by the `hidden` or
 * `aria-hidden` attribute, or by a utility class. Tab and accordion panels are hidden the same
 * ways until the reader opens them and are content (a product's specs, an FAQ's answers), so
 * they stay: a tab panel, an element named as a panel, or one a control on the page opens.
 */
const STYLED_HIDDEN = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
const PANEL = /(?:^|[\s_-])(?:tab|tabs|panel|accordion|collapse|collapsible|toggle|expand|expander|details|more)(?:$|[\s_-])/i;
const HIDDEN = '[style], [class], [hidden], [aria-hidden="true"]';

/**
 * Utility classes that hide an element at every screen size (`hidden`, Bootstrap's `d-none`,
 * `hide`, a framework's own `u-hidden`, `ipsHide`, a BEM `--hidden` state); a responsive class
 * beside them (`md:block`, `d-lg-flex`) shows it on larger screens. Only short texts hidden so
 * are dropped (an error message, a tooltip, a second date format): a longer one is a collapsed
 * answer or a "read more" that the reader opens.
 */
const HIDING_CLASS = /^(?:(?:[a-z]{1,4}[-_])?(?:d-none|display-none)|(?!(?:xs|sm|md|lg|xl|s|m|l)[-_])(?:[a-z]{1,4}[-_]?)?(?:hide|hidden)|[\w-]+--(?:is-)?hidden)$/i;
const SHOWN_AT_SOME_SIZE = /^(?:[a-z0-9]+:(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)|d-[a-z]{2,3}-(?!none)[a-z-]+)$/i;

const HIDDEN_LABEL = 200;

/**
 * Shown only while the pointer is over it: transparent or invisible (`opacity-0`, `invisible`)
 * until a hover variant reveals it (`group-hover/tooltip:opacity-100`): a tooltip, a heading's
 * "#" anchor, a card's "View profile" overlay. A reader of the page does not see it.
 */
const TRANSPARENT = /^(?:opacity-0|invisible)$/;
const SHOWN_ON_HOVER = /^(?:[\w/-]+:)*(?:group-|peer-)?hover(?:\/[\w-]+)?:(?:opacity-100|visible)$/;

function classHidden(element: Element): boolean {
  const tokens = (element.getAttribute('class') ?? '').split(/\s+/);
  const hidden =
    (tokens.some((t) => HIDING_CLASS.test(t)) && !tokens.some((t) => SHOWN_AT_SOME_SIZE.test(t))) ||
    (tokens.some((t) => TRANSPARENT.test(t)) && tokens.some((t) => SHOWN_ON_HOVER.test(t)));
  return hidden && visibleLength(element) <= HIDDEN_LABEL;
}

function outOfSight(element: Element, opened: ReadonlySet<string>): boolean {
  const style = element.getAttribute('style');
  const hidden =
    (style !== null && STYLED_HIDDEN.test(style)) ||
    element.hasAttribute('hidden') ||
    // Not a link: a card's redundant second link to its item (its image, its snippet) is hidden
    // from screen readers to spare them the repeat, and stays on screen.
    (element.getAttribute('aria-hidden') === 'true' && element.localName !== 'a') ||
    classHidden(element);
  const id = element.getAttribute('id');
  return hidden && element.getAttribute('role') !== 'tabpanel' && !(id && opened.has(id)) && !PANEL.test(`${element.getAttribute('class') ?? ''} ${id ?? ''}`);
}

/**
 * A hidden block that holds most of what is left of the region is the content itself, hidden
 * until a script lets the reader in (a password or age gate, a lockdown app), not chrome.
 */
const GATED_CONTENT = 500;
function gatedContent(element: Element, rootLength: () => number): boolean {
  const length = visibleLength(element);
  return length >= GATED_CONTENT && length >= rootLength() * 0.5;
}

/** Ids of the elements that a control under `root` opens (`aria-controls`). */
function openedByControls(root: Element): Set<string> {
  const ids = new Set<string>();
  for (const control of selectAll(root, '[aria-controls]')) for (const id of (control.getAttribute('aria-controls') ?? '').split(/\s+/)) if (id) ids.add(id);
  return ids;
}

/** Words that name page chrome, not content, in a class or id. */
const CHROME_WORDS =
  'nav|navbar|navigation|menu|breadcrumbs?|footer|header|masthead|sidebar|cookies?|consent|gdpr|newsletter|subscribe|subscription|share|sharing|social|skip|skip-link|modal|popup|overlay|banner|advert|advertisement|ads?|ad-slot|sponsor|sponsored|promo|related|recommended|recommendations|pagination|pager|toolbar|filters?|facets?|sort|sorting|login|signup|sign-in|sr-only|visually-hidden|screen-reader-text|announcement|signature|signatures|post-signature|tool-?tips?|popovers?|hovercard|preview-card|(?:country|language|locale|region|currency)[-_]?(?:selector|switcher|picker|chooser)s?';

/**
 * Of those, the ones that are chrome even as a part of a component (`ipsEntry__signature`,
 * `article__share`): a card's or a post's header and footer are its own, its signature and share
 * bar are not.
 */
const CHROME_PARTS = 'signatures?|share|sharing|social|newsletter|related|recommended|advert|ads?|sponsor|sponsored|promo|breadcrumbs?|pagination|pager';

/**
 * A class token is chrome when the word is the token, or the token's head or tail (`site-footer`,
 * `nav-links`), not when it names a part of a content block (`tech-specs__header`), unless that
 * part is itself chrome.
 */
function chromeToken(words: string, parts: string): RegExp {
  return new RegExp(`^(?:(?:[a-z0-9]+-)?(?:${words})(?:-[a-z0-9]+)?|(?:[a-z0-9]+-)+sidebar|[\\w-]+__(?:${parts})(?:--[\\w-]+)?)$`, 'i');
}
const CHROME_TOKEN = chromeToken(CHROME_WORDS, CHROME_PARTS);

/** Whether an element's class or id names chrome. */
function chromeNamed(element: Element): boolean {
  return `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`.split(/\s+/).some((token) => CHROME_TOKEN.test(token));
}

/**
 * A page type's own chrome words (a product's reviews) are matched anywhere in a class's block
 * name (`pipf-highlight-reviews`, `product-reviews__card`), since they never name content of
 * that type; the block name is the token up to a BEM `__`/`--`.
 */
function blockWordToken(words: string): RegExp {
  return new RegExp(`^(?:[a-z0-9]+[-_])*(?:${words})(?:[-_][a-z0-9]+)*(?:(?:__|--).*)?$`, 'i');
}

/**
 * Asides that belong to the text: admonitions and callouts of docs (`[role="note"],
 * [class*="admonition"], [class*="callout"], [class*="alert-"], aside[class*="note"],
 * aside[class*="tip"], aside[class*="warning"]`, tested without compiling that selector per element).
 */
function isNote(element: Element): boolean {
  if (element.getAttribute('role') === 'note') return true;
  const classes = element.getAttribute('class');
  if (classes === null) return false;
  return (
    classes.includes('admonition') ||
    classes.includes('callout') ||
    classes.includes('alert-') ||
    (element.localName === 'aside' && (classes.includes('note') || classes.includes('tip') || classes.includes('warning')))
  );
}

/** A link drawn as a button ("Get started", "Book a consultation", "Download now"): an action, not content. */
const BUTTON_CLASS = /^(?:[a-z0-9]+[-_])?(?:btn|button|cta)(?:(?:[-_]{1,2}|--)[a-z0-9-]+)?$/i;
const CALL_TO_ACTION = 40;
function callToAction(link: Element): boolean {
  if (visibleLength(link) > CALL_TO_ACTION) return false;
  return link.getAttribute('role') === 'button' || (link.getAttribute('class') ?? '').split(/\s+/).some((token) => BUTTON_CLASS.test(token));
}

/** A button that shows or hides content (a tab, an accordion heading) is a heading for it. */
const DISCLOSURE = 'button[aria-controls], button[aria-expanded], [role="tab"]';

/** The length of the link text under `element`, but for the links `notAWay` says lead nowhere else. */
function linkTextLength(element: Element, measures: TextMeasures, notAWay?: (link: Element) => boolean): number {
  let n = 0;
  for (const a of selectAll(element, 'a')) if (!notAWay?.(a)) n += measures.length(a);
  return n;
}

/**
 * Whether a link jumps to a part of the page (`href="#battery"`, an element with that id):
 * a product page's highlight cards that lead to their sections, not a way to another page.
 */
function inPageLink(document: Document): (link: Element) => boolean {
  const ids = new Set<string>();
  for (const element of selectAll(document, '[id]')) ids.add(element.getAttribute('id')!);
  return (link) => {
    const href = link.getAttribute('href') ?? '';
    return href.length > 1 && href.startsWith('#') && ids.has(href.slice(1));
  };
}

/** The main landmark (without one, the page's only top-level article), when it is unique and holds a fair share of the page's text. */
function regionRoot(document: Document, total: number): Element {
  const mains = selectAll(document, 'main, [role="main"]').filter((m) => !closest(m.parentElement, 'main, [role="main"]'));
  if (mains.length === 0) {
    const articles = selectAll(document, 'article').filter((m) => !closest(m.parentElement, 'article'));
    if (articles.length === 1) mains.push(articles[0]!);
  }
  const main = mains[0];
  if (mains.length !== 1 || !main || visibleLength(main) < total * 0.2) return document.body;
  // Prose the landmark leaves out (a category's description under the grid) widens the region
  // to the nearest ancestor that holds both.
  let root: Element = main;
  for (const paragraph of selectAll(document.body, 'p')) {
    if (root.contains(paragraph) || visibleLength(paragraph) < OUTSIDE_PROSE || closest(paragraph, CHROME_LANDMARKS)) continue;
    while (root.parentElement && !root.contains(paragraph)) root = root.parentElement;
  }
  return root;
}

/** A paragraph this long outside the main landmark is content the landmark missed. */
const OUTSIDE_PROSE = 200;

/** Short texts this many times on a page are controls and badges ("Add to cart", "Loading", "Reply"). */
const REPEATED_LABEL = { maxLength: 60, times: 3 };

/** Code tokens and table values repeat by nature. (A walk up by tag name: `closest` parses its selector per call.) */
const REPEATING = new Set(['pre', 'code', 'table']);
function inRepeatingBlock(element: Element, root: Element): boolean {
  for (let at: Element | null = element; at && at !== root; at = at.parentElement) if (REPEATING.has(at.localName)) return true;
  return false;
}

/**
 * A cookie notice: the site says it uses cookies and asks for consent. Banners are usually
 * named as such (`cookie-banner`) and go with the chrome words; these are the ones that are not.
 */
const COOKIE_NOTICE = {
  maxLength: 600,
  site: /\b(?:we|this (?:web)?site|our (?:web)?site|\w+) (?:uses?|have placed|place|set) cookies\b|\bcookie (?:policy|settings|preferences)\b/i,
  consent: /\b(?:agree|accept|consent|opt[- ]in|preferences|settings|allow)\b/i,
};

/**
 * A notice at collection: the site says what personal data it may collect and points to its
 * privacy policy ("Notice to Consumers: Bombas may collect 'Identifiers'... please see our
 * Privacy Policy"), printed on every page for a state's privacy law.
 */
const COLLECTION_NOTICE = {
  collects: /\bmay collect\b|\bcollects? (?:your |personal )?(?:information|data)\b/i,
  policy: /\bprivacy (?:policy|notice|statement)\b/i,
};

/** Removes the blocks of the region that are cookie or data-collection notices, outermost first. */
function dropConsentNotices(root: Element): void {
  // A block's text holds the text of every block inside it: under one that says neither
  // "cookie" nor "privacy", no block is a notice, and its text is not read again for each.
  let silent: Element | null = null;
  for (const element of selectAll(root, 'p, div, section, span')) {
    if (!root.contains(element) || silent?.contains(element)) continue;
    const text = element.textContent ?? '';
    const cookie = /cookie/i.test(text);
    const privacy = /privacy/i.test(text);
    if (!cookie && !privacy) {
      silent = element;
      continue;
    }
    // The words first: measuring every wrapper that holds a footer's "Privacy" link costs more.
    const cookies = cookie && COOKIE_NOTICE.site.test(text) && COOKIE_NOTICE.consent.test(text);
    const collection = !cookies && privacy && COLLECTION_NOTICE.collects.test(text) && COLLECTION_NOTICE.policy.test(text);
    if ((cookies || collection) && visibleLength(element) <= COOKIE_NOTICE.maxLength) element.remove();
  }
}

/** The words around a field, up to this long, are its box's: a signup's pitch, a reply box's help. */
const FIELD_BOX = 400;
/** A form this short around a field the reader writes in is that box, with its instructions. */
const WRITING_FORM = 1000;
const WRITING_FIELD = 'textarea, input[type="email"], input[autocomplete="email"], input[type="password"]';

/**
 * Removes newsletter signups, sign-in, reply and comment boxes: the short form around a field
 * the reader writes in ("Your answer", "Thanks for contributing an answer..."), and the largest
 * block around it that is still short ("Enter your email for 10% off", the consent line under
 * it). A page-wide form (ASP.NET wraps whole pages in one) is longer and stays.
 */
function dropWritingBoxes(root: Element): void {
  for (const field of selectAll(root, WRITING_FIELD)) {
    if (!root.contains(field)) continue;
    const form = closest(field, 'form');
    let box: Element = form && root.contains(form) && visibleLength(form) <= WRITING_FORM ? form : field;
    while (box.parentElement && box.parentElement !== root && visibleLength(box.parentElement) <= FIELD_BOX) box = box.parentElement;
    box.remove();
  }
}

/** Elements that wrap words inside a line (a link's `<span class="link-enhancement">`). */
const INLINE = new Set(['a', 'abbr', 'b', 'cite', 'em', 'i', 'mark', 'small', 'span', 'strong', 'sub', 'sup', 'u']);

/**
 * A word or link inside a sentence: its parent, or the block its inline wrappers sit in, has
 * words of its own around it (not just a label's colon).
 */
function inSentence(element: Element, ownWords: (element: Element) => number): boolean {
  for (let at: Element | null = element.parentElement; at; at = at.parentElement) {
    if (ownWords(at) >= 2) return true;
    if (!INLINE.has(at.localName)) return false;
  }
  return false;
}

/** Counts the words of an element's own text nodes, once per element: siblings share their parent's count (a row of 10,000 links stays linear). */
function ownWordCounter(): (element: Element) => number {
  const counts = new Map<Element, number>();
  return (element) => {
    let words = counts.get(element);
    if (words === undefined) {
      words = 0;
      for (let node = element.firstChild; node; node = node.nextSibling) if (node.nodeType === 3) words += (node as Text).data.match(/\p{L}+/gu)?.length ?? 0;
      counts.set(element, words);
    }
    return words;
  };
}

/** Removes leaf blocks whose short text repeats across the region (not a name linked in running text, nor, in a thread, a post's date or its poster's name). */
function dropRepeatedLabels(root: Element, thread: boolean): void {
  const byText = new Map<string, Element[]>();
  const ownWords = ownWordCounter();
  for (const element of selectAll(root, '*')) {
    // A post's date is its date line, however many posts share it.
    if (element.firstElementChild || (thread && element.localName === 'time') || inRepeatingBlock(element, root) || inSentence(element, ownWords)) continue;
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
    if (!text || text.length > REPEATED_LABEL.maxLength || (thread && posterName(element, text))) continue;
    const same = byText.get(text);
    if (same) same.push(element);
    else byText.set(text, [element]);
  }
  for (const elements of byText.values()) {
    if (elements.length < REPEATED_LABEL.times) continue;
    // Links to one address within one card (its image link, its title link, its title for
    // another layout): the card's name said several times, not a control; said once.
    if (sameLink(elements) && oneCard(commonAncestor(elements), root)) for (const element of elements.slice(1)) element.remove();
    else for (const element of elements) element.remove();
  }
}

/** Every copy is a link to one address. */
function sameLink(elements: readonly Element[]): boolean {
  const hrefs = new Set(elements.map((element) => closestLink(element)?.getAttribute('href') ?? null));
  return hrefs.size === 1 && !hrefs.has(null);
}

/** A block this short that holds every copy of a label is one card. */
const ONE_CARD = 400;
function oneCard(ancestor: Element | null, root: Element): boolean {
  return ancestor !== null && ancestor !== root && visibleLength(ancestor) <= ONE_CARD;
}
function commonAncestor(elements: readonly Element[]): Element | null {
  let ancestor: Element | null = elements[0] ?? null;
  while (ancestor && !elements.every((element) => ancestor!.contains(element))) ancestor = ancestor.parentElement;
  return ancestor;
}

/**
 * Containers of the page's items: the element with the most same-shaped children that carry
 * text (the cards of a grid, the entries of a listing), and every other run of three or more
 * such children that link to one thing each (each list of a front page). Menus are same-shaped
 * too, but their entries are a word or two, or, in a mega menu, columns of many links.
 */
function itemContainers(root: Element, measures: TextMeasures): Element[] {
  const found: Element[] = [];
  let best: Element | null = null;
  let most = MIN_ITEMS - 1;
  for (const element of [root, ...selectAll(root, '*')]) {
    const counts = new Map<string, { all: number; cards: number }>();
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      if (measures.length(child) < ITEM_TEXT) continue;
      const shape = `${child.localName}.${child.getAttribute('class') ?? ''}`;
      const count = counts.get(shape) ?? { all: 0, cards: 0 };
      count.all++;
      if (measures.links(child) <= CARD_LINKS) count.cards++;
      counts.set(shape, count);
    }
    for (const { all, cards } of counts.values()) {
      if (all > most) [best, most] = [element, all];
      if (cards >= MIN_ITEMS && !found.includes(element)) found.push(element);
    }
  }
  return best && !found.includes(best) ? [best, ...found] : found;
}
const MIN_ITEMS = 3;
/** A card links to its item, maybe its author or section; a menu column links to many pages. */
const CARD_LINKS = 4;
const ITEM_TEXT = 40;

/** Text for screen readers only: an icon link's label is still not on screen. */
const SCREEN_READER_ONLY = /^(?:sr-only|visually-hidden|screen-reader-text)$/i;

/**
 * All the text of the link it sits in, on screen: the link's label, whatever its class names
 * (a card's caption, `<a class="product"><div class="product-overlay">`).
 */
function linkLabel(element: Element, tokens: readonly string[]): boolean {
  if (tokens.some((token) => SCREEN_READER_ONLY.test(token))) return false;
  const link = closestLink(element);
  if (!link || link === element) return false;
  const length = visibleLength(element);
  return length > 0 && length === visibleLength(link);
}

/**
 * A class that names an item card (`product-card`, `grid-item`, `tile`): on a run of such
 * cards, a chrome word beside it is the item's state (`subscription-eligible`, `sale-banner`),
 * not chrome; chrome around the grid is still named on its container.
 */
const ITEM_CARD = /(?:^|[-_])(?:card|product|item|tile)(?:$|[-_])/i;
const CARD_RUN = 3;
/** A card is more than a tab's or a menu's label. */
const CARD_TEXT = 20;
function itemCardRun(element: Element): boolean {
  const classes = element.getAttribute('class') ?? '';
  if (!classes.split(/\s+/).some((token) => ITEM_CARD.test(token) && !CHROME_TOKEN.test(token))) return false;
  // The grid's slot for the card: a card is often wrapped alone in its `<li>` or cell.
  let slot = element;
  while (slot.parentElement && slot.parentElement.childElementCount === 1) slot = slot.parentElement;
  const card = (candidate: Element) => {
    let inner: Element | null = candidate;
    while (inner && inner.localName !== element.localName) inner = inner.childElementCount === 1 ? inner.firstElementChild : null;
    return inner?.getAttribute('class') === classes && visibleLength(inner) >= CARD_TEXT && selectOne(inner, 'a[href]') !== null;
  };
  let run = 0;
  for (const sibling of slot.parentElement?.children ?? []) {
    // Enough found: a grid of thousands is not read through for each of its cards.
    if (sibling.localName === slot.localName && card(sibling) && ++run >= CARD_RUN) return true;
  }
  return false;
}

/** A heading element, or a wrapper that opens with one (`<div class="heading"><h2>`). */
function isHeading(element: Element): boolean {
  const first = element.firstElementChild;
  return /^h[2-6]$/.test(element.localName) || (first !== null && /^h[2-6]$/.test(first.localName));
}

/**
 * A list that a heading introduces is the section's content (an index, a list of works), not a
 * menu; so is the wrapper it sits in (`<div class="columns"><ul>`).
 */
function underHeading(element: Element): boolean {
  const list = element.localName === 'ul' || element.localName === 'ol' ? element : element.firstElementChild;
  if (!list || (list.localName !== 'ul' && list.localName !== 'ol')) return false;
  for (let at: Element | null = element, up = 0; at && up < 3; at = at.parentElement, up++) {
    let previous = at.previousElementSibling;
    while (previous && !(previous.textContent ?? '').trim()) previous = previous.previousElementSibling;
    if (previous) return isHeading(previous);
  }
  return false;
}

export interface RegionOptions {
  /** Drop blocks that are mostly link text (menus, tag clouds). */
  pruneLinkDense: boolean;
  /** A page of items (a grid, a listing, a landing page of cards): spare them from that (their titles are links), drop sort and filter controls. */
  keepItems?: boolean | undefined;
  /** More chrome words for this kind of page (a product's reviews, an article's comments). */
  extraChrome?: string | undefined;
  /** Titles (headings, or lines that open a block) of sections that are not about the page's subject ("Customer reviews", "You may also like"). */
  chromeHeadings?: RegExp | undefined;
  /** Sections that repeat are content (an API reference describes a parameter under each call that takes it). */
  repeatsOnPurpose?: boolean | undefined;
  /** Figure captions are content (a doc's diagram is explained under it), not a photo's description and credit. */
  figureCaptions?: boolean | undefined;
  /** A thread: drop what it prints about each poster (profile fields, counters). */
  posts?: boolean | undefined;
  /** A landing page: drop the cards that advertise the site's other publications (its latest posts, case studies). */
  teasers?: boolean | undefined;
  /** A listing: drop its entries' date, age and reading-time lines ("Feb 19, 2026", "7 hours ago"). */
  entryDates?: boolean | undefined;
  /** A product: drop the shop's purchase terms around it (delivery, returns, payment plans). */
  purchase?: boolean | undefined;
  /** Links to parts of the page are not link text (a product page's highlight cards lead to its sections). */
  inPageLinks?: boolean | undefined;
  /** A product: drop what the page prints above the product's name (its `<h1>`). */
  fromTitle?: boolean | undefined;
  /**
   * A product: a line every long sentence of which an earlier line said, or that rewords an
   * earlier line, is one text printed twice (an FAQ's answer said in the description too, an
   * ingredient described in the story and again in its tab); keep the first.
   */
  sentencesOnce?: boolean | undefined;
  /** A product: drop lists of the shop's raw data fields (`retail_price_tier1:`, `cat_thumb_Navy:`). */
  dataFields?: boolean | undefined;
  /**
   * A long paragraph said twice is one text printed for two layouts (a product's description in
   * its tab and its accordion, an article's standfirst in its hero and its body); keep the first.
   * Not in a thread, whose replies quote what a post said, nor on a grid, whose cards repeat
   * their fine print.
   */
  paragraphsOnce?: boolean | undefined;
  /** Drop the author's bio box, found by the page's schema.org Person (an article's, a landing page's). */
  authorBios?: boolean | undefined;
  /**
   * The page has no text of its own outside its chrome landmarks (see staticContent): drop them
   * whatever their size, since there is no content they could be wrapping.
   */
  chromeOnly?: boolean | undefined;
}

/** Prunes the document in place and returns the region's root; `jsonLd` is the page's, for what it says of the author. */
export function contentRegion(document: Document, options: RegionOptions, jsonLd: readonly unknown[] = []): Element {
  const total = visibleLength(document.body);
  const root = regionRoot(document, total);
  const rootLength = root === document.body ? total : visibleLength(root);
  const heading = selectOne(root, 'h1');
  const typeChrome = options.extraChrome ? blockWordToken(options.extraChrome) : null;
  // Still in the region: not inside something dropped before. (Not isConnected, which a
  // linkedom document's clone answers false for every node.)
  const kept = (element: Element) => element !== root && root.contains(element);
  // A chrome-looking block is dropped unless it is the content's own wrapper or holds its title;
  // a note named like chrome (`alert-warning`) stays unless it is hidden (a notice shown only
  // in some state: "This topic has been deleted").
  const drop = (element: Element, hidden = false) => {
    if ((!hidden && isNote(element)) || (heading && element.contains(heading))) return;
    if (visibleLength(element) < rootLength * 0.5) element.remove();
  };
  dropWritingBoxes(root);
  // Before hidden blocks go: the panel's fields are often drawn as styled labels, the boxes hidden.
  if (options.keepItems) dropFilterPanels(root);
  // Before buttons go: the prompt's link is often drawn as one.
  if (options.posts) dropPostingPrompts(root);
  const opened = openedByControls(root);
  for (const element of selectAll(root, DISCLOSURE)) element.replaceWith(...element.childNodes);
  for (const element of selectAll(root, 'button')) element.remove();
  for (const element of selectAll(root, 'a[role="button"], a[class]')) if (root.contains(element) && callToAction(element)) element.remove();
  for (const element of selectAll(root, CHROME_LANDMARKS)) {
    if (!kept(element) || sectionHeader(element)) continue;
    const author = options.posts ? postAuthor(element) : null;
    if (author) element.replaceWith(author);
    else if (options.chromeOnly) element.remove();
    else drop(element);
  }
  // Measured once, when a hidden block is big enough to ask: not once per hidden element.
  let leftLength: number | undefined;
  const measureRoot = () => (leftLength ??= visibleLength(root));
  for (const element of selectAll(root, HIDDEN)) if (kept(element) && outOfSight(element, opened) && !gatedContent(element, measureRoot)) drop(element, true);
  for (const element of selectAll(root, '[class], [id]')) {
    if (!kept(element)) continue;
    const tokens = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`.split(/\s+/);
    if (!tokens.some((token) => CHROME_TOKEN.test(token) || typeChrome?.test(token)) || linkLabel(element, tokens)) continue;
    // Only the generic chrome words can be a card's state; a type's own (reviews) never are.
    const stateOnly = !tokens.some((token) => typeChrome?.test(token)) && !CHROME_TOKEN.test(element.getAttribute('id') ?? '');
    if (!(stateOnly && itemCardRun(element))) drop(element);
  }
  if (options.authorBios) dropAuthorBios(root, personDescriptions(jsonLd));
  if (options.chromeHeadings) dropAsideSections(root, options.chromeHeadings, rootLength * 0.5);
  // A photo's caption says again what the text says about it, and whose photo it is; the text
  // output has no photo for it to caption.
  if (!options.figureCaptions) for (const caption of selectAll(root, 'figcaption')) caption.remove();
  dropConsentNotices(root);
  dropSignInPrompts(root);
  dropFillerLines(root);
  dropScriptData(root);
  dropBorrowedLabels(root);
  if (options.keepItems) {
    dropGridControls(root);
    dropOfferTerms(root);
    dropEmbedCodes(root);
    dropTitleCopyLinks(root);
  }
  if (options.entryDates) dropEntryDates(root);
  if (options.posts) {
    dropAnswerComments(root);
    dropPosterStats(root);
    dropThreadFurniture(root);
    dropQuotedPosts(root);
  } else dropAffiliateDisclosures(root);
  if (options.purchase) {
    dropPickers(root);
    dropPolicyParagraphs(root);
    dropPurchaseLines(root);
    dropMediaCounters(root);
  }
  if (options.dataFields) dropDataFields(root);
  dropRepeatedLabels(root, options.posts === true);
  if (options.pruneLinkDense) {
    // Measured once: the loop below removes blocks in document order, so the subtree of each
    // block it reaches is as it was here.
    const measures = textMeasures(root);
    const items = options.keepItems ? itemContainers(root, measures) : [];
    const holdsItems = (element: Element) => items.some((container) => container.contains(element) || element.contains(container));
    const notAWay = options.inPageLinks ? inPageLink(document) : options.posts ? postBylines() : undefined;
    for (const element of selectAll(root, 'ul, ol, div, section, table, p')) {
      if (!kept(element) || underHeading(element) || holdsItems(element)) continue;
      const length = measures.length(element);
      if (length > 0 && linkTextLength(element, measures, notAWay) / length > 0.6 && length < rootLength * 0.5) element.remove();
    }
  }
  // After the link-dense pruning, which spares the largest run of cards: with the teasers gone
  // first, a menu's columns would be the largest run.
  if (options.teasers) dropPublicationTeasers(root);
  if (!options.repeatsOnPurpose) dropRepeatedBlocks(root, options.paragraphsOnce === true);
  if (options.fromTitle) dropBeforeTitle(root);
  if (options.sentencesOnce) dropSaidSentences(root);
  return root;
}
