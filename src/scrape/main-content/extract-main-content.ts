import { contentRegion, type RegionOptions } from './content-region';
import type { MainContentMethod, PageType, PassedOver } from '../../db/page-metadata';
import type { PageTypeGuess } from './page-type';
import { dropFillerLines } from './filler-lines';
import { productFacts } from './product-facts';
import { dropPurchaseLines } from './purchase-lines';
import { readabilityContent } from './readability-content';
import { visibleLength } from './text-lines';

export interface MainContent {
  /** The element the later stages convert. */
  root: Element;
  method: MainContentMethod;
  /** Share of the page's visible text that was kept, 0..1. */
  ratio: number;
  /** Methods tried before the one used, in order. */
  passedOver: PassedOver[];
}

/** An extractor may keep little text, but then it must be a real share of the page. */
const TRUSTED_LENGTH = 200;
const TRUSTED_SHARE = 0.25;

interface Attempt {
  method: MainContentMethod;
  run(document: Document, jsonLd: readonly unknown[]): Element | null;
}

const region = (options: RegionOptions): Attempt => ({ method: 'region', run: (document, jsonLd) => contentRegion(document, options, jsonLd) });

/** Parts of a product page that are about other things than the product, or by other people. */
const PRODUCT_CHROME = 'reviews?|ratings?|questions|qa|q-and-a|recently-viewed|also-bought|also-viewed|upsell|cross-sell|similar|carousel|slider|swiper|recs';
/** Reader comments under an article, doc or landing page, and the author's bio box (the same under every post). */
const COMMENTS = 'comments?|comment-list|respond|disqus|author[-_]?(?:box|bio|card|info|profile|about)|about[-_](?:the[-_])?author';
/** Headings of a product page's sections about other products, other people's words, or buying. */
const PRODUCT_ASIDES =
  /^(?:(?:customer |product |guest )(?:reviews?|ratings?)|reviews|ratings?( (?:&|and) reviews)?|questions (?:&|and) answers|q ?(?:&|and) ?a|top reviews|(?:what )?(?:our )?(?:customers|people|clients|buyers|users|players|curators|critics|reviewers) (?:say|are saying|think)|keep shopping)\b|^(?:related|similar|recommended|sponsored)\b|^(?:you (?:may|might) also|customers (?:also|who)|frequently (?:bought|purchased)|recently viewed|more from|more like this|shop the look|get the look|complete the look|as seen on|meet (?:the|your) seller|(?:shipping|delivery)(?:,? (?:&|and) |, )returns?\b)/i;
/** Legal small print under a shop's products and grids: disclaimers, offer terms, trademark notices. */
const FINE_PRINT = 'disclaimers?|legal|fine-print|footnotes?';
const readability: Attempt = { method: 'readability', run: readabilityContent };

/** What the region drops and keeps, by page type. */
const REGION: Record<PageType, Omit<RegionOptions, 'pruneLinkDense'>> = {
  article: { extraChrome: COMMENTS, authorBios: true, paragraphsOnce: true },
  documentation: { extraChrome: COMMENTS, authorBios: true, repeatsOnPurpose: true, figureCaptions: true },
  service: { extraChrome: COMMENTS, authorBios: true, keepItems: true, paragraphsOnce: true, teasers: true },
  forum: { posts: true },
  product: { purchase: true, dataFields: true, fromTitle: true, sentencesOnce: true, inPageLinks: true, paragraphsOnce: true, extraChrome: `${PRODUCT_CHROME}|${FINE_PRINT}`, chromeHeadings: PRODUCT_ASIDES },
  collection: { extraChrome: `${COMMENTS}|${FINE_PRINT}`, authorBios: true, keepItems: true },
  listing: { extraChrome: `${COMMENTS}|${FINE_PRINT}`, authorBios: true, keepItems: true, entryDates: true },
};

/**
 * Which extractors to try, best first (measured on real pages, docs/content.md): the
 * region; when it keeps too little, the region again with its link lists (a page that is an
 * index of links, A to Z, is mostly link text); Readability; and last the whole page with its
 * menus. Grids, listings and landing pages are made of cards whose titles are links, so their
 * region spares its items from the link-density pruning.
 */
const cascade = (type: PageType): Attempt[] => [region({ ...REGION[type], pruneLinkDense: true }), region({ ...REGION[type], pruneLinkDense: false }), readability];

/**
 * For an article, Readability's pick is the tighter one when it holds about as much text as the
 * region (the region also keeps bylines' neighbours, author boxes, newsletter asides): taken
 * when it keeps between 0.55 and 1.2 times the region's text. Asides are a small share of a
 * page; a pick that leaves out nearly half of the region has left out a section of the content
 * (measured, docs/content.md).
 */
const TIGHTER: Partial<Record<PageType, { attempt: Attempt; min: number; max: number }>> = {
  article: { attempt: readability, min: 0.55, max: 1.2 },
};

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** The tighter extractor's pick, when it keeps a share of `kept` in its range; it may not throw the page off. */
function tryTighter(tighter: { attempt: Attempt; min: number; max: number }, document: Document, jsonLd: readonly unknown[], kept: number): { root: Element; kept: number } | null {
  try {
    const root = tighter.attempt.run(document.cloneNode(true) as Document, jsonLd);
    const length = visibleLength(root);
    return root && length >= kept * tighter.min && length <= kept * tighter.max ? { root, kept: length } : null;
  } catch {
    return null;
  }
}

/**
 * The main content of a cleaned page: the extractors for its type run in order until one keeps enough text; the whole page is the last
 * resort. An extractor that throws is passed over like one that keeps too little, and both are
 * named in `passedOver`, so a page never fails here.
 *
 * The first extractor prunes `document`; later ones need the page as it was, which `prepareAgain`
 * builds (parsed and cleaned once more). Most pages never need it, and building it only then is
 * cheaper than copying every page up front: a copy of the DOM costs about half its parse.
 *
 * A `chromeOnly` page (see staticContent) has no main content beyond the little text outside
 * its header, footer and menus, which are not its content.
 */
export function extractMainContent(document: Document, page: PageTypeGuess, jsonLd: readonly unknown[], prepareAgain: () => Document, chromeOnly = false): MainContent {
  const body = document.body;
  const total = visibleLength(body);
  const passedOver: PassedOver[] = [];
  const result = (root: Element, method: MainContentMethod, kept: number): MainContent => ({
    root,
    method,
    ratio: total ? Math.round(Math.min(1, kept / total) * 1000) / 1000 : 1,
    passedOver,
  });
  if (total === 0) return result(body, 'full-page', 0);
  let pristine: Document | undefined;
  const unpruned = (): Document => (pristine ??= prepareAgain());
  // Whether `document` is still as cleaning left it, for the first extractor to prune.
  const untouched = !chromeOnly;
  if (chromeOnly) {
    // Only what lies outside the chrome, if anything (a 404's message): every fallback would
    // keep the menus. Should it throw, the cascade runs as for any page, on a fresh copy.
    try {
      const root = contentRegion(document, { ...REGION[page.type], pruneLinkDense: true, chromeOnly: true }, jsonLd);
      const kept = visibleLength(root);
      return kept > 0 ? result(root, 'region', kept) : result(document.createElement('div'), 'none', 0);
    } catch (err) {
      passedOver.push({ method: 'region', reason: `outside the page's chrome: ${describe(err)}` });
    }
  }
  const attempts = cascade(page.type);
  for (const [i, attempt] of attempts.entries()) {
    try {
      const root = attempt.run(i === 0 && untouched ? document : (unpruned().cloneNode(true) as Document), jsonLd);
      // A product's own facts count towards what the region kept: a thin region that misses the
      // description its JSON-LD holds is still the product's, with the description added.
      if (root && page.type === 'product') productFacts(root, jsonLd);
      const kept = visibleLength(root);
      if (root && (kept >= TRUSTED_LENGTH || kept >= total * TRUSTED_SHARE)) {
        if (page.type === 'product') {
          // The region drops the shop's lines itself; Readability's pick keeps them.
          if (attempt.method !== 'region') {
            dropPurchaseLines(root);
            dropFillerLines(root);
          }
        }
        const tighter = TIGHTER[page.type];
        const narrowed = tighter && tighter.attempt.method !== attempt.method ? tryTighter(tighter, root.ownerDocument, jsonLd, kept) : null;
        if (!tighter || !narrowed) return result(root, attempt.method, kept);
        passedOver.push({ method: attempt.method, reason: `kept ${kept} characters; ${tighter.attempt.method} kept the same content more tightly (${narrowed.kept})` });
        return result(narrowed.root, tighter.attempt.method, narrowed.kept);
      }
      passedOver.push({ method: attempt.method, reason: `kept ${kept} of ${total} characters` });
    } catch (err) {
      passedOver.push({ method: attempt.method, reason: describe(err) });
    }
  }
  return result(unpruned().body, 'full-page', total);
}
