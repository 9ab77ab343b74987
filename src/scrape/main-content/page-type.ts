import { PAGE_TYPES, type PageType } from '../../db/page-metadata';

/**
 * What kind of page this is, from what the page says of itself (schema.org types in JSON-LD and
 * microdata, OpenGraph, the generator) and from its URL and structure. Each signal votes with a
 * weight; structured data weighs most, because sites write it for exactly this question.
 */

/** What the detector reads; gathered by the page scan before cleaning drops scripts and the head. */
export interface PageSignals {
  url: string;
  /** schema.org type names from JSON-LD and microdata (`Product`, `BlogPosting`, ...). */
  schemaTypes: readonly string[];
  ogType?: string | undefined;
  generator?: string | undefined;
  /** The page's heading names a product its schema.org data describes: the page is that product's. */
  namedProduct?: boolean | undefined;
}

const SCHEMA: Record<string, PageType> = {
  product: 'product',
  productgroup: 'product',
  individualproduct: 'product',
  vehicle: 'product',
  book: 'product',
  softwareapplication: 'product',
  videogame: 'product',
  discussionforumposting: 'forum',
  qapage: 'forum',
  techarticle: 'documentation',
  apireference: 'documentation',
  offercatalog: 'collection',
  searchresultspage: 'listing',
  itemlist: 'listing',
  article: 'article',
  newsarticle: 'article',
  blogposting: 'article',
  reportagenewsarticle: 'article',
  scholarlyarticle: 'article',
  report: 'article',
  recipe: 'article',
  service: 'service',
  professionalservice: 'service',
  localbusiness: 'service',
  faqpage: 'service',
};

/**
 * Article and listing types are written on many kinds of page (a shop's blog teaser, a site's
 * nav list); an FAQ block sits under grids and products as often as on landing pages.
 */
const WEIGHT_OF: Partial<Record<string, number>> = { article: 2, listing: 2 };
const SCHEMA_WEIGHT = (name: string, type: PageType): number => (name === 'faqpage' ? 2 : (WEIGHT_OF[type] ?? 3));
/** This many entities of a product type on one page make it a grid or a list of them. */
const MANY_ENTITIES = 3;
/** A product page's own buy button, and its copy in a sticky bar. */
const ONE_BUY_BUTTON = 2;
/** Priced items in one run that make a grid unmistakable. */
const LONG_GRID = 8;
/** Headline links that make an index of stories or posts, and the share of the page's text they hold. */
const HEADLINES = 10;
const HEADLINES_SHARE = 0.2;

const GENERATOR: [RegExp, PageType][] = [
  [/discourse|phpbb|vbulletin|xenforo|mybb|invision|flarum|nodebb|simple machines|vanilla/i, 'forum'],
  [/docusaurus|sphinx|mkdocs|vitepress|gitbook|docsify|antora|read the docs|hugo.*docsy|nextra|mintlify|starlight/i, 'documentation'],
];

const PATH: [RegExp, PageType][] = [
  [/\/(?:t|topic|topics|thread|threads|forum|forums|community|discussions?|questions|answers|comments|viewtopic(?:\.php)?|showthread(?:\.php)?)(?:\/|$|\?|-)/i, 'forum'],
  [/\/(?:docs?|documentation|manual|reference|api|guides?|tutorials?|kb|knowledge-?base|help|howto|learn|wiki)(?:\/|$)/i, 'documentation'],
  [/\/(?:products?|p|dp|item|items|app|buy|gp\/product|listing)\/[^/]+/i, 'product'],
  [/\/(?:collections?|category|categories|c|shop|catalog|catalogue|department|browse|store)(?:\/|$)/i, 'collection'],
  [/\/(?:news|blog|blogs|articles|events|press|posts|archive|tags?|search|results|jobs|careers|podcasts?|episodes)\/?(?:page\/\d+\/?)?(?:$|\?)/i, 'listing'],
  [/\/(?:services?|solutions?|pricing|plans|features|platform|industries|about|contact|why-[^/]+)(?:\/|$)/i, 'service'],
];

/** Structure read off the cleaned page. */
export interface PageStructure {
  /** `<pre>` blocks. */
  codeBlocks: number;
  /** Text in paragraphs of 150+ characters: running prose. */
  proseLength: number;
  /** All visible text. */
  textLength: number;
  /** Price-like strings (`$19.99`, `19,99 €`). */
  prices: number;
  /** Buttons or links that put something in a cart or bag. */
  cartActions: number;
  /** Elements of the largest group of same-shaped siblings with text (cards, posts, rows). */
  repeatedItems: number;
  /** Text inside those items. */
  itemsTextLength: number;
  /** Those items that show a price. */
  pricedItems: number;
  /** Those items that show a date. */
  datedItems: number;
  /** `<time>` elements and date-like bylines. */
  dates: number;
  /** Links outside the site's menus, banner and footer whose label reads as a headline (5 to 30 words). */
  headlineLinks: number;
  /** Text of those links. */
  headlinesLength: number;
}

export interface PageTypeGuess {
  type: PageType;
  /** The signals that decided it, for metadata. */
  evidence: string[];
}

export function detectPageType(signals: PageSignals, structure: PageStructure): PageTypeGuess {
  const votes = new Map<PageType, number>();
  const evidence = new Map<PageType, string[]>();
  const vote = (type: PageType, weight: number, why: string) => {
    votes.set(type, (votes.get(type) ?? 0) + weight);
    evidence.set(type, [...(evidence.get(type) ?? []), why]);
  };
  const s = structure;
  // One buy button (maybe repeated in a sticky bar) means one thing to buy: a priced run on
  // that page is a carousel of other products. A grid has no buy button, or one per item. So
  // does a heading that names the product the page's data describes (one of few: many are a
  // grid's), whatever the carousel's buttons.
  const described = signals.schemaTypes.filter((name) => SCHEMA[name.toLowerCase()] === 'product').length;
  const namedProduct = signals.namedProduct === true && described < MANY_ENTITIES;
  const oneThingToBuy = namedProduct || (s.cartActions > 0 && s.cartActions <= ONE_BUY_BUTTON);
  const grid = !oneThingToBuy && s.pricedItems >= 4 && s.pricedItems >= 0.5 * s.repeatedItems;
  const counts = new Map<string, number>();
  for (const name of signals.schemaTypes) counts.set(name.toLowerCase(), (counts.get(name.toLowerCase()) ?? 0) + 1);
  for (const [name, count] of counts) {
    const type = SCHEMA[name];
    if (!type) continue;
    // Many products (or books) described on one page are the items of a grid or a list; many
    // articles, the entries of a blog's or a section's index.
    if (type === 'product' && count >= MANY_ENTITIES) vote(grid ? 'collection' : 'listing', 3, `${count} schema.org ${name} items`);
    else if (type === 'article' && count >= MANY_ENTITIES) vote('listing', 3, `${count} schema.org ${name} items`);
    else vote(type, SCHEMA_WEIGHT(name, type), `schema.org ${name}`);
  }
  const og = signals.ogType?.toLowerCase();
  if (og === 'product' || og === 'og:product' || og === 'product.item') vote('product', 2, `og:type ${og}`);
  if (og === 'article') vote('article', 0.5, 'og:type article');
  for (const [pattern, type] of GENERATOR) if (signals.generator && pattern.test(signals.generator)) vote(type, 3, `generator ${signals.generator}`);
  let path = '/';
  try {
    const url = new URL(signals.url);
    path = url.pathname + url.search;
    if (/^(?:docs?|developers?|developer|api|wiki|learn|support|help)\./i.test(url.hostname)) vote('documentation', 1.5, `host ${url.hostname}`);
    if (/^(?:forums?|community|discuss|answers)\./i.test(url.hostname)) vote('forum', 1.5, `host ${url.hostname}`);
  } catch {
    // No URL to read.
  }
  for (const [pattern, type] of PATH) if (pattern.test(path)) vote(type, 1.5, `path ${path.slice(0, 80)}`);
  if (path === '/' || path === '') vote('service', 0.5, 'site home page');

  if (s.codeBlocks >= 2) vote('documentation', Math.min(2, s.codeBlocks / 3), `${s.codeBlocks} code blocks`);
  // A CollectionPage is a shop's grid when its items show prices, else a section's listing.
  if (signals.schemaTypes.some((t) => t.toLowerCase() === 'collectionpage')) vote(grid ? 'collection' : 'listing', 3, 'schema.org collectionpage');
  // Beside prices, one buy button is a product's; more are a grid's, one per item.
  if (s.cartActions > 0 && s.prices > 0) vote(grid || !oneThingToBuy ? 'collection' : 'product', 2, 'cart action and price');
  // A long run of priced items outweighs a site-wide og:type or an FAQ block under the grid.
  if (grid) vote('collection', s.pricedItems >= LONG_GRID ? 3 : 1.5, `${s.pricedItems} of ${s.repeatedItems} repeated items show a price`);
  if (s.repeatedItems >= 6 && !grid && s.itemsTextLength > 0.3 * s.textLength) {
    const dated = s.datedItems >= 3;
    vote('listing', dated ? 2 : 1.25, `${s.repeatedItems} repeated items${dated ? ` (${s.datedItems} dated)` : ''}`);
  }
  // A news front page or a blog's index titles each entry with a link to it, wherever the cards
  // sit; a shop's grid, priced, is a collection.
  if (!grid && s.headlineLinks >= HEADLINES && s.headlinesLength >= HEADLINES_SHARE * s.textLength) vote('listing', 1.5, `${s.headlineLinks} headline links`);
  if (s.datedItems >= 3 && s.proseLength > 0.3 * s.textLength) vote('forum', 0.75, `${s.datedItems} dated posts`);
  if (s.proseLength > 0.5 * s.textLength && s.proseLength > 1500) vote('article', s.repeatedItems >= 6 ? 0.75 : 1.5, 'mostly running prose');
  if (s.proseLength < 0.2 * s.textLength) vote('service', 0.5, 'little running prose');

  let best: PageType = s.proseLength > 0.35 * s.textLength ? 'article' : 'service';
  let top = 0;
  for (const type of PAGE_TYPES) {
    const v = votes.get(type) ?? 0;
    if (v > top) [best, top] = [type, v];
  }
  return { type: best, evidence: evidence.get(best) ?? ['default by share of prose'] };
}
