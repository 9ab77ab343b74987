import { Counter, Histogram } from 'prom-client';
import { METRIC_PREFIX, metrics } from './registry';

const pagesScraped = new Counter({
  name: `${METRIC_PREFIX}pages_scraped_total`,
  help: 'Pages scraped and stored, by operation (scrape, crawl, batch...) and renderer; rate() of it is pages/s.',
  labelNames: ['operation', 'renderer'] as const,
  registers: [metrics],
});

const pageStages = new Histogram({
  name: `${METRIC_PREFIX}page_stage_duration_seconds`,
  help: 'Time a stored page spent in each pipeline stage (the stages of metadata.timing: fetchMs, markdownMs...).',
  labelNames: ['stage'] as const,
  buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metrics],
});

const creditsCharged = new Counter({
  name: `${METRIC_PREFIX}credits_charged_total`,
  help: 'Credits taken from teams, by operation.',
  labelNames: ['operation'] as const,
  registers: [metrics],
});

/** A page newly stored with its charge: counts it, its credits and each stage's time. */
export function recordStoredPage(operation: string, renderer: string, timing: Record<string, number>, credits: number): void {
  pagesScraped.inc({ operation, renderer });
  recordCharge(operation, credits);
  for (const [stage, ms] of Object.entries(timing)) pageStages.observe({ stage: stage.replace(/Ms$/, '') }, ms / 1000);
}

/** Credits taken by a charge that was not a page's (a search, an extract, a screenshot). */
export function recordCharge(operation: string, credits: number): void {
  if (credits > 0) creditsCharged.inc({ operation }, credits);
}
