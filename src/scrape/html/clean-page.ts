import { absoluteHttpUrl } from './base-url';
import { adoptLazySource } from './lazy-images';
import type { PageScan } from './scan-page';
import { selectAll } from './css-selectors';

export interface CleanOptions {
  /** CSS selectors of elements to drop. */
  excludeTags?: string[] | undefined;
  /** Drop `data:` images, which bloat markdown without adding meaning. */
  removeBase64Images: boolean;
}

/** The largest candidate of a `srcset`, by width or density descriptor. */
function largestSrcsetCandidate(srcset: string): string | undefined {
  let best: { url: string; size: number } | undefined;
  for (const candidate of srcset.split(/,\s+/)) {
    const [url, descriptor = '1x'] = candidate.trim().split(/\s+/);
    const size = parseFloat(descriptor) || 1;
    if (url && (!best || size > best.size)) best = { url, size };
  }
  return best?.url;
}

function rewriteMedia(element: Element, base: string, removeBase64Images: boolean): void {
  if (element.localName === 'img' || element.localName === 'source') adoptLazySource(element);
  const srcset = element.getAttribute('srcset');
  if (srcset !== null && element.localName !== 'video' && element.localName !== 'audio') {
    const best = largestSrcsetCandidate(srcset);
    if (best) element.setAttribute('src', best);
    element.removeAttribute('srcset');
  }
  const src = element.getAttribute('src');
  if (!src) return;
  if (src.startsWith('data:')) {
    if (removeBase64Images) element.remove();
    return;
  }
  const url = absoluteHttpUrl(src, base);
  if (url) element.setAttribute('src', url);
}

function rewriteAnchor(anchor: Element, base: string): void {
  const href = anchor.getAttribute('href')!;
  if (href.startsWith('#')) return;
  const url = absoluteHttpUrl(href, base);
  if (url) anchor.setAttribute('href', url);
  else if (/^\s*javascript:/i.test(href)) anchor.removeAttribute('href');
}

const textLength = (node: Node | null): number => (node?.textContent ?? '').replace(/\s+/g, ' ').trim().length;

/**
 * What a client without scripts sees: `<noscript>` content stays (unwrapped) when the page says
 * more there than outside it, as server-rendered fallbacks of script-built pages do; otherwise
 * it is a "please enable JavaScript" note or a tracking pixel, and goes.
 */
function settleNoscripts(body: HTMLElement | null, noscripts: readonly Element[]): void {
  if (!body || noscripts.length === 0) return;
  const inside = noscripts.reduce((sum, element) => sum + textLength(element), 0);
  const keep = inside > textLength(body) - inside;
  for (const element of noscripts) {
    if (keep) element.replaceWith(...element.childNodes);
    else element.remove();
  }
}

/** The matches of `selectors` that are not inside another match, in document order. */
function outermost(document: Document, selectors: string[]): Element[] {
  const matches = selectAll(document, selectors.join(','));
  const matched = new Set(matches);
  return matches.filter((element) => {
    for (let parent = element.parentElement; parent; parent = parent.parentElement) if (matched.has(parent)) return false;
    return true;
  });
}

/**
 * Strips non-content elements and comments, flattens nesting past MAX_DEPTH to text, settles
 * `<noscript>`s, removes what `excludeTags` selects, makes links and media URLs absolute and
 * drops base64 images. Mutates the document and returns its body.
 */
export function cleanPage(document: Document, scan: PageScan, base: string, options: CleanOptions): HTMLElement {
  for (const node of scan.removable) node.parentNode?.removeChild(node);
  for (const element of scan.tooDeep) if (element.isConnected) element.textContent = element.textContent;
  settleNoscripts(document.body, scan.noscripts);
  if (options.excludeTags?.length) for (const element of selectAll(document, options.excludeTags.join(','))) element.remove();
  for (const element of scan.media) rewriteMedia(element, base, options.removeBase64Images);
  for (const anchor of scan.anchors) if (anchor.localName === 'a') rewriteAnchor(anchor, base);
  return document.body;
}

/** Leaves the body holding only what `includeTags` selects (outermost matches, in document order). */
export function keepIncluded(document: Document, includeTags: string[]): HTMLElement {
  const body = document.body;
  const kept = outermost(document, includeTags);
  if (kept.some((element) => element.contains(body))) return body;
  while (body.firstChild) body.removeChild(body.firstChild);
  kept.forEach((element, i) => {
    if (i > 0) body.appendChild(document.createTextNode('\n'));
    body.appendChild(element);
  });
  return body;
}
