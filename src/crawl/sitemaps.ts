import { gunzipSync } from 'node:zlib';
import * as cheerio from 'cheerio';
import type { GuardedFetcher } from '../net/guarded-fetcher';

const MAX_SITEMAP_DOCUMENTS = 50;
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

function isGzip(body: Buffer): boolean {
  return body.length > 2 && body[0] === 0x1f && body[1] === 0x8b;
}

/**
 * URLs listed by a site's sitemaps: those named in robots.txt and /sitemap.xml, following
 * sitemap indexes and gzip files, up to `limit` URLs and a bounded number of documents. A
 * sitemap that cannot be read is skipped: sitemaps only seed a crawl.
 */
export async function sitemapUrls(
  fetcher: GuardedFetcher,
  origin: string,
  declared: string[],
  o: { limit: number; deadline: number; userAgent: string },
): Promise<string[]> {
  const queue = [...new Set([...declared, `${origin}/sitemap.xml`])];
  const seen = new Set<string>();
  const urls = new Set<string>();
  while (queue.length > 0 && seen.size < MAX_SITEMAP_DOCUMENTS && urls.size < o.limit && Date.now() < o.deadline) {
    const sitemap = queue.shift()!;
    if (seen.has(sitemap)) continue;
    seen.add(sitemap);
    let body: Buffer;
    try {
      const response = await fetcher.get(sitemap, {
        headers: { 'user-agent': o.userAgent, accept: 'application/xml,text/xml,*/*;q=0.5' },
        deadline: o.deadline,
        maxBytes: MAX_SITEMAP_BYTES,
      });
      if (response.status >= 400) continue;
      body = isGzip(response.body) ? gunzipSync(response.body, { maxOutputLength: MAX_SITEMAP_BYTES }) : response.body;
    } catch {
      continue;
    }
    const $ = cheerio.load(body.toString('utf8'), { xml: true });
    $('sitemapindex > sitemap > loc').each((_, el) => {
      queue.push($(el).text().trim());
    });
    $('urlset > url > loc').each((_, el) => {
      if (urls.size < o.limit) urls.add($(el).text().trim());
    });
  }
  return [...urls].filter((u) => /^https?:\/\//i.test(u));
}
