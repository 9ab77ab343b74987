import type { ScrapeOptions } from './scrape-options';

/**
 * Why this scrape must run in the browser before any fetch, or null to try plain HTTP first.
 * Pure, so workflows decide the route without an activity.
 */
export function browserRequiredBy(o: Pick<ScrapeOptions, 'engine' | 'waitFor' | 'mobile' | 'formats' | 'actions' | 'branding'>): string | null {
  if (o.engine === 'browser') return 'engine: browser';
  if (o.engine === 'http') return null;
  if (o.waitFor > 0) return 'waitFor';
  if (o.mobile) return 'mobile';
  if (o.formats.some((f) => f.startsWith('screenshot'))) return 'screenshot';
  if (o.actions?.length) return 'actions';
  if (o.branding) return 'branding';
  return null;
}
