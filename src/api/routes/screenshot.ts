import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { screenshotWorkflow } from '../../../workflows';
import { PRICES } from '../../credits/pricing';
import { AppError } from '../../errors';
import { createJob } from '../../jobs/job-store';
import { SCREENSHOT_FORMATS } from '../../browser/captured-image';
import { parseScreenshotFileName } from '../../screenshots/screenshot-ids';
import { screenshotOptionsOf, screenshotRequestSchema } from '../../screenshots/screenshot-options';
import type { ScreenshotRow } from '../../screenshots/screenshot-store';
import { awaitWorkflowResult } from '../../temporal/await-result';
import type { ApiDeps } from '../api-deps';
import { checkTarget, requireCredits } from '../preflight';
import { admissionTicket, type RouteTable } from '../route';

const screenshotResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    url: z.string().describe('Image URL, fetchable without the API key until expiresAt.'),
    width: z.number().int().describe('Image pixels.'),
    height: z.number().int(),
    format: z.enum(['png', 'jpeg']),
    bytes: z.number().int(),
    viewport: z.object({ width: z.number().int(), height: z.number().int(), deviceScaleFactor: z.number(), isMobile: z.boolean(), fullPage: z.boolean() }),
    page: z.object({ url: z.string().describe('Final URL after redirects.'), statusCode: z.number().int(), title: z.string() }),
    timing: z.object({ queuedMs: z.number(), navigationMs: z.number(), waitMs: z.number(), captureMs: z.number(), totalMs: z.number() }),
    expiresAt: z.string(),
    warning: z.string().optional().describe('Set when the full page was cut at the height limit.'),
  }),
});

function screenshotData(row: ScreenshotRow, url: string) {
  const { viewport, page, timing, warning } = row.details!;
  return { url, width: row.width, height: row.height, format: row.format, bytes: row.bytes, viewport, page, timing, expiresAt: row.expiresAt.toISOString(), ...(warning && { warning }) };
}

export function registerScreenshotRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v1/screenshot',
    tag: 'Screenshots',
    summary: 'Capture a page as an image',
    description:
      'Runs a short Temporal workflow (`screenshot-<jobId>`) on the scrape task queue, its capture on the browser queue: the page is rendered, left to settle (network quiet, bounded), scrolled through for full-page captures, and captured. Nothing on the page is dismissed. The image URL needs no key and expires after SCREENSHOT_TTL_SECONDS.',
    auth: true,
    admission: deps.admission,
    body: screenshotRequestSchema,
    responses: {
      200: { description: 'The image URL and what was captured', schema: screenshotResponseSchema },
      402: { description: 'Not enough credits (INSUFFICIENT_CREDITS)' },
      403: { description: 'Not a public http(s) URL, or it redirects to one that is not (URL_BLOCKED)' },
      408: { description: 'The page did not finish within timeout (SCRAPE_TIMEOUT)' },
      422: { description: 'The selector matched no visible element (SCREENSHOT_SELECTOR_NOT_FOUND)' },
      502: { description: 'The target could not be fetched (SCRAPE_DNS_RESOLUTION_ERROR, SCRAPE_CONNECTION_ERROR, SCRAPE_SSL_ERROR)' },
    },
    handler: async (ctx, { body }) => {
      const requestedAt = Date.now();
      const { team } = ctx.state;
      const options = screenshotOptionsOf(body);
      const priority = admissionTicket(ctx).admit(team, options.timeout);

      await checkTarget(deps.gate, body.url);
      await requireCredits(deps.db, team.teamId, PRICES.screenshotCapture, 'A screenshot');

      const jobId = randomUUID();
      await createJob(deps.db, { id: jobId, teamId: team.teamId, kind: 'screenshot', url: body.url, options, ttlHours: deps.config.JOB_TTL_HOURS });
      const run = deps.temporal.workflow.execute(screenshotWorkflow, {
        taskQueue: deps.config.taskQueues.scrape,
        workflowId: `screenshot-${jobId}`,
        priority,
        workflowExecutionTimeout: options.timeout * 3 + 60_000,
        args: [{ task: { jobId, teamId: team.teamId, url: body.url, options, requestedAt }, browserQueue: deps.config.taskQueues.browser }],
      });
      const { screenshotId } = await awaitWorkflowResult(run, options.timeout, 'screenshot');
      const row = await deps.screenshots.findLive(screenshotId);
      if (!row) throw new AppError('NOT_FOUND', 'The screenshot expired before it could be returned');
      ctx.body = { success: true, data: screenshotData(row, deps.screenshots.url(row)) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/screenshots/:file',
    tag: 'Screenshots',
    summary: 'Fetch a screenshot image',
    description: 'The URL is the capability: no API key. Answers 404 in the error shape for an unknown or expired image. Images never change, so caches may keep them until they expire.',
    auth: false,
    responses: {
      200: { description: 'The image (image/png or image/jpeg, as its extension says)', contentType: 'image/png', schema: z.string().meta({ format: 'binary' }) },
      304: { description: 'Not modified (If-None-Match / If-Modified-Since)' },
      404: { description: 'No such image, or it expired (NOT_FOUND)' },
      503: { description: 'Postgres or the image store is unreachable (SERVICE_UNAVAILABLE, with Retry-After)' },
    },
    handler: async (ctx) => {
      const parsed = parseScreenshotFileName(ctx.params.file ?? '');
      const row = parsed && (await deps.screenshots.findLive(parsed.id));
      const object = row && row.format === parsed.format ? await deps.screenshots.images.get(row.storageKey) : null;
      if (!row || !object) throw new AppError('NOT_FOUND', 'No such screenshot, or it has expired');
      const maxAge = Math.max(0, Math.floor((row.expiresAt.getTime() - Date.now()) / 1000));
      ctx.set({
        'Cache-Control': `public, max-age=${maxAge}, immutable`,
        Expires: row.expiresAt.toUTCString(),
        ETag: `"${row.id}"`,
        'Last-Modified': row.createdAt.toUTCString(),
        'X-Content-Type-Options': 'nosniff',
        'Content-Disposition': `inline; filename="${ctx.params.file}"`,
      });
      ctx.status = 200;
      if (ctx.fresh) {
        object.body.destroy();
        ctx.status = 304;
        return;
      }
      ctx.type = SCREENSHOT_FORMATS[row.format];
      ctx.length = object.bytes;
      ctx.body = object.body;
    },
  });
}
