import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { PRICES } from '../../credits/pricing';
import { pages } from '../../db/schema';
import { trackChanges } from '../../scrape/change-tracking/track-changes';
import { uncachedVariant } from '../../scrape/change-tracking/previous-copy';
import { contentVariant } from '../../scrape/content-variant';
import type { ApiDeps } from '../api-deps';
import { clientGone } from '../client-gone';
import { admissionTicket, type RouteTable } from '../route';
import { runScrape } from '../run-scrape';
import { resumeKeyOf } from '../../jobs/resumable-scrapes';
import { v2DocumentSchema, type V2DocumentExtras } from '../../firecrawl/v2/document';
import { renderV2Document } from '../../firecrawl/v2/render-document';
import { jobOptionsWithV2, planV2Scrape, v2ScrapeRequestSchema } from '../../firecrawl/v2/scrape-options';
import { requireLlmForSummary, summarizePage } from './summarize';

export function registerV2ScrapeRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v2/scrape',
    tag: 'Firecrawl v2',
    summary: 'Scrape one URL (v2)',
    description:
      'Firecrawl v2 scrape over the same workflow as /v1/scrape. Defaults differ from v1: `maxAge` is two days (a stored copy answers), formats take objects (json, screenshot, changeTracking, attributes), and images, summary and changeTracking are added.',
    auth: true,
    admission: deps.admission,
    body: v2ScrapeRequestSchema,
    responses: {
      200: { description: 'The scraped document', schema: z.object({ success: z.literal(true), data: v2DocumentSchema }) },
      402: { description: 'Not enough credits (INSUFFICIENT_CREDITS)' },
      403: { description: 'Not a public http(s) URL (URL_BLOCKED)' },
      408: { description: 'The page did not finish within timeout (SCRAPE_TIMEOUT) and is still being scraped: details {state: "processing_continues", retryAfterSeconds, scrapeId} and Retry-After; the same request sent again gets the document (firecrawl-js does so by itself)' },
      429: { description: "Over the key's or the team's request rate, or the team's own pages-in-flight limit (RATE_LIMITED), with Retry-After" },
      422: { description: 'summary asked for, or a json prompt without a schema, and no LLM is configured (LLM_NOT_CONFIGURED)' },
      502: { description: 'The target could not be fetched (SCRAPE_*), or the LLM failed (LLM_ERROR)' },
      503: { description: "The scrape queue is full or its wait is longer than the request's timeout, or Postgres or Temporal is unavailable (SERVICE_UNAVAILABLE), with Retry-After" },
    },
    handler: async (ctx, { body }) => {
      const { team } = ctx.state;
      const { url, origin: _origin, integration: _integration, ...v2 } = body;
      const plan = planV2Scrape(v2);
      if (plan.output.formats.includes('summary')) requireLlmForSummary(deps.config.llm);
      const row = await runScrape(deps, admissionTicket(ctx), { team, url, options: plan.options, clientGone: clientGone(ctx), jobOptions: jobOptionsWithV2(plan), resumeKey: resumeKeyOf(ctx.path, body) });

      const variant = contentVariant(plan.options);
      if (!plan.output.storeInCache) {
        await deps.db.update(pages).set({ variant: uncachedVariant(variant) }).where(eq(pages.id, row.id));
      }
      const extras: V2DocumentExtras = {};
      const warnings: string[] = [];
      if (plan.output.changeTracking) extras.changeTracking = await trackChanges(deps.db, team.teamId, row, variant, plan.output.changeTracking);
      if (plan.output.formats.includes('summary')) {
        const { summary, warning } = await summarizePage(deps.db, deps.config.llm!, { id: row.id, teamId: team.teamId, jobId: row.jobId, markdown: row.markdown ?? '' });
        extras.summary = summary;
        if (warning) warnings.push(warning);
      }
      const data = await renderV2Document(deps.db, row, plan.output, extras, deps.config.llm && { config: deps.config.llm, teamId: team.teamId });
      if (extras.summary !== undefined) data.metadata.creditsUsed += PRICES.json;
      if (warnings.length) data.warning = [data.warning, ...warnings].filter(Boolean).join(' ');
      ctx.body = { success: true, data };
    },
  });
}
