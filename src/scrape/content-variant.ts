import { createHash } from 'node:crypto';
import type { ScrapeOptions } from './scrape-options';

/**
 * A short hash of every option that changes what a page's stored content looks like. Two
 * scrapes with the same URL and variant may share a stored copy (`maxAge`).
 */
export function contentVariant(o: ScrapeOptions): string {
  const shaping = {
    onlyMainContent: o.onlyMainContent,
    includeTags: o.includeTags ?? [],
    excludeTags: o.excludeTags ?? [],
    removeBase64Images: o.removeBase64Images,
    headers: Object.entries(o.headers ?? {}).sort(),
    mobile: o.mobile,
    engine: o.engine,
    waitFor: o.waitFor,
    languages: o.location?.languages ?? [],
    // A window size changes responsive layouts; absent (every v1 scrape), the hash is as before.
    ...(o.screenshot?.viewport && { viewport: o.screenshot.viewport }),
  };
  return createHash('sha256').update(JSON.stringify(shaping)).digest('base64url').slice(0, 16);
}
