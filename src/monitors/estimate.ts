import { crawlPagePrice } from '../crawl/submit-crawl';
import { PRICES, searchResultCredits } from '../credits/pricing';
import type { TargetPlan } from './monitor-plan';

/**
 * Credits one check should cost: each scraped page at its price, each search result at its
 * price, and a crawl at the pages its last check found (its limit before any). An LLM judge
 * adds the json price per changed page, which cannot be known ahead, so it is left out.
 */
export function estimateCheckCredits(plans: readonly TargetPlan[], crawlPagesSeen: ReadonlyMap<string, number>): number {
  let credits = 0;
  for (const plan of plans) {
    if (plan.type === 'scrape') credits += plan.urls.length * crawlPagePrice(plan.options);
    else if (plan.type === 'crawl') credits += (crawlPagesSeen.get(plan.id) ?? plan.options.limit) * crawlPagePrice(plan.options);
    else credits += plan.queries.length * plan.options.limit * searchResultCredits(plan.options.scrapeOptions.formats);
  }
  return credits;
}

/** The least a check can cost: one page. A team with less is skipped (skipped_no_credits). */
export const MIN_CHECK_CREDITS = PRICES.page;
