import type { CheerioAPI } from 'cheerio';
import { absoluteHttpUrl } from './base-url';

export interface CleanOptions {
  /** CSS selectors; when given, only matching elements are kept. */
  includeTags?: string[] | undefined;
  /** CSS selectors of elements to drop. */
  excludeTags?: string[] | undefined;
  /** Drop `data:` images, which bloat markdown without adding meaning. */
  removeBase64Images: boolean;
}

/** Elements that never carry readable content. */
const NON_CONTENT = 'script, style, noscript, template, link, meta, iframe, object, embed, canvas, svg, head';

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

type DomNode = ReturnType<CheerioAPI['root']>[number]['children'][number];

/**
 * Every comment node, in one walk. (`$('*').contents()` concatenates arrays per element,
 * quadratic in the page's size: seconds on a 300 KB page, and far worse in a process where V8
 * has put Array.prototype.concat on its slow path, as the Temporal worker's does.)
 */
function commentsUnder(nodes: DomNode[], found: DomNode[] = []): DomNode[] {
  for (const node of nodes) {
    if (node.type === 'comment') found.push(node);
    else if ('children' in node) commentsUnder(node.children, found);
  }
  return found;
}

/**
 * Strips non-content elements, applies include/exclude selectors, makes links and image URLs
 * absolute and drops base64 images. Mutates `$` and returns the cleaned body HTML.
 */
export function cleanHtml($: CheerioAPI, base: string, options: CleanOptions): string {
  $(NON_CONTENT).remove();
  $(commentsUnder($.root()[0]!.children)).remove();
  if (options.excludeTags?.length) $(options.excludeTags.join(',')).remove();

  $('img[srcset], source[srcset]').each((_, el) => {
    const node = $(el);
    const best = largestSrcsetCandidate(node.attr('srcset') ?? '');
    if (best) node.attr('src', best);
    node.removeAttr('srcset');
  });
  $('a[href]').each((_, el) => {
    const node = $(el);
    const href = node.attr('href')!;
    if (href.startsWith('#')) return;
    const url = absoluteHttpUrl(href, base);
    if (url) node.attr('href', url);
    else if (/^\s*javascript:/i.test(href)) node.removeAttr('href');
  });
  $('img[src], source[src], video[src], audio[src]').each((_, el) => {
    const node = $(el);
    const src = node.attr('src')!;
    if (src.startsWith('data:')) {
      if (options.removeBase64Images) node.remove();
      return;
    }
    const url = absoluteHttpUrl(src, base);
    if (url) node.attr('src', url);
  });

  if (!options.includeTags?.length) return ($('body').length ? $('body').html() : $.html()) ?? '';
  const kept = $(options.includeTags.join(','));
  // A match nested inside another match is already part of its ancestor's HTML.
  return kept
    .filter((_, el) => $(el).parents().filter((__, p) => kept.is(p)).length === 0)
    .toArray()
    .map((el) => $.html(el))
    .join('\n');
}
