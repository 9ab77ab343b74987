import { Readability } from '@mozilla/readability';
import { parseBody } from './parse-document';

export type MainContentMethod = 'readability' | 'semantic' | 'full-page';

export interface MainContent {
  /** The element the later stages convert. */
  root: Element;
  /**
   * Which extractor produced it: Readability; else the page without its semantic boilerplate
   * (nav, banner, footer, asides outside the content); else, when that leaves nothing, the page.
   */
  method: MainContentMethod;
  /** Share of the page's visible text that was kept, 0..1. */
  ratio: number;
}

/** Landmarks that are never the main content, unless they sit inside it. */
const BOILERPLATE = [
  'nav',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="complementary"]',
  '[aria-hidden="true"]',
  'header',
  'footer',
  'aside',
].join(',');

/** Readability may keep little text, but then it must be a real share of what was left. */
const TRUSTED_LENGTH = 200;
const TRUSTED_SHARE = 0.25;

function textLength(text: string | null | undefined): number {
  return (text ?? '').replace(/\s+/g, ' ').trim().length;
}

/** Boilerplate landmarks that are not inside the content itself. */
function boilerplateOf(document: Document): Element[] {
  return [...document.querySelectorAll(BOILERPLATE)].filter((el) => !el.parentElement?.closest('main, article, [role="main"]'));
}

function stripBoilerplate(document: Document): void {
  for (const el of boilerplateOf(document)) el.remove();
}

/**
 * The main content of a cleaned page. Semantic boilerplate is removed first, because
 * Readability alone picks a footer over a short article; then Readability runs on the rest and
 * hands back its element. Readability consumes the document, so the rare fallback parses the
 * cleaned body again from its HTML, kept before Readability starts.
 */
export function extractMainContent(document: Document, baseUrl: string): MainContent {
  const body = document.body;
  const total = textLength(body.textContent);
  const boilerplate = boilerplateOf(document);
  const candidate = total - boilerplate.reduce((sum, el) => sum + textLength(el.textContent), 0);
  if (total === 0 || candidate <= 0) return { root: body, method: 'full-page', ratio: 1 };
  const cleanedHtml = body.innerHTML;
  for (const el of boilerplate) el.remove();
  const heading = document.querySelector('h1');

  const article = new Readability<Element>(document, { keepClasses: false, charThreshold: 0, serializer: (el) => el as Element }).parse();
  const kept = textLength(article?.textContent);
  if (article?.content && (kept >= TRUSTED_LENGTH || kept >= candidate * TRUSTED_SHARE)) {
    // Readability lifts a heading that repeats the title out of the content; put it back.
    const title = heading?.textContent?.trim();
    if (heading && title && !article.textContent?.includes(title)) article.content.insertBefore(heading, article.content.firstChild);
    return { root: article.content, method: 'readability', ratio: Math.round(Math.min(1, kept / total) * 1000) / 1000 };
  }
  const semantic = parseBody(cleanedHtml, baseUrl);
  stripBoilerplate(semantic);
  return { root: semantic.body, method: 'semantic', ratio: Math.round(Math.min(1, candidate / total) * 1000) / 1000 };
}
