import { z } from 'zod';
import { pageToDocument } from '../../firecrawl/v1/document';
import { scrapeOptionsOf, scrapeRequestSchema } from '../../scrape/scrape-options';
import type { ApiDeps } from '../api-deps';
import { clientGone } from '../client-gone';
import { admissionTicket, type RouteTable } from '../route';
import { runScrape } from '../run-scrape';
import { resumeKeyOf } from '../../jobs/resumable-scrapes';
import { documentSchema } from '../../firecrawl/v1/document-schema';

export function registerScrapeRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v1/scrape',
    tag: 'Scraping',
    summary: 'Scrape one URL',
    description:
      'Runs the scrape as a short Temporal workflow (`scrape-<scrapeId>`) and answers with the document. The target\'s own 4xx/5xx comes back as 200 with `metadata.statusCode`.',
    auth: true,
    admission: deps.admission,
    body: scrapeRequestSchema,
    responses: {
      200: { description: 'The scraped document', schema: z.object({ success: z.literal(true), data: documentSchema }) },
      402: { description: 'Not enough credits (INSUFFICIENT_CREDITS)' },
      403: { description: 'Not a public http(s) URL (URL_BLOCKED)' },
      408: { description: 'The page did not finish within timeout (SCRAPE_TIMEOUT); it is still being scraped: the same request sent again within 20 minutes gets it (details.state processing_continues, Retry-After)' },
      422: { description: 'jsonOptions has a prompt but no schema, and no LLM is configured (LLM_NOT_CONFIGURED)' },
      429: { description: 'Over the key\'s or the team\'s request rate, or the team\'s own pages-in-flight limit (RATE_LIMITED), with Retry-After' },
      502: { description: 'The target could not be fetched (SCRAPE_DNS_RESOLUTION_ERROR, SCRAPE_CONNECTION_ERROR, SCRAPE_SSL_ERROR, SCRAPE_TOO_LARGE), or the LLM failed (LLM_ERROR)' },
      503: { description: "The scrape queue is full or its wait is longer than the request's timeout, or Postgres or Temporal is unavailable (SERVICE_UNAVAILABLE), with Retry-After" },
    },
    handler: async (ctx, { body }) => {
      const options = scrapeOptionsOf(body);
      const row = await runScrape(deps, admissionTicket(ctx), { team: ctx.state.team, url: body.url, options, clientGone: clientGone(ctx), resumeKey: resumeKeyOf(ctx.path, body) });
      ctx.body = { success: true, data: pageToDocument(row, options.formats) };
    },
  });
}
