import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../config/env';
import { batchOptionsOf } from '../../crawl/crawl-options';
import { AppError } from '../../errors';
import { CronError, parseCron } from '../../monitors/cron';
import { MONITOR_WEBHOOK_EVENTS, type DiffModes, type MonitorNotification, type MonitorWebhook, type TargetPlan } from '../../monitors/monitor-plan';
import { cronFromText, ScheduleTextError } from '../../monitors/schedule-text';
import { searchOptionsOf, searchRequestSchema } from '../../search/search-options';
import { clientTags } from '../../scrape/scrape-options';
import type { PublicUrlGate } from '../../net/public-url-gate';
import { checkTarget } from '../preflight';
import { v2CrawlOptionsOf, v2CrawlRequestSchema } from './crawl-request';
import { formatName, planV2Scrape, refineV2ScrapeOptions, v2ScrapeOptionsShape, type V2ScrapeOptions } from '../../firecrawl/v2/scrape-options';

const url = z.string().min(1).max(8192);

/** A monitor's schedule: exactly one of `cron` and `text` on create; `timezone` alone may change on update. */
const scheduleSchema = z
  .strictObject({
    cron: z.string().min(1).max(200).optional().describe('Five-field cron expression, e.g. "*/30 * * * *".'),
    text: z.string().min(1).max(200).optional().describe('Natural-language schedule, e.g. "every 30 minutes", "daily at 9:00", "every monday at 8am"; stored and returned as cron.'),
    timezone: z.string().min(1).max(100).optional().describe('IANA time zone the schedule reads in (default UTC).'),
  })
  .refine((s) => !(s.cron && s.text), 'give cron or text, not both');

/** v2 scrape options as a monitor takes them: summary is per scrape only; maxAge and storeInCache do not apply (a check always fetches). */
const monitorScrapeOptionsSchema = z
  .strictObject(v2ScrapeOptionsShape)
  .superRefine((o, ctx) => {
    refineV2ScrapeOptions(o, ctx);
    if (o.formats.some((f) => formatName(f) === 'summary')) ctx.addIssue({ code: 'custom', path: ['formats'], message: 'the summary format is not available in monitors; use a goal to have changes judged' });
  })
  .describe('How each page is scraped (v2 scrape options). A json format (or changeTracking with the json mode) makes diffs per field.');

const { url: _u, prompt: _p, scrapeOptions: _s, webhook: _w, zeroDataRetention: _z, origin: _o, integration: _i, ...crawlShape } = v2CrawlRequestSchema.shape;
const monitorCrawlOptionsSchema = z.strictObject(crawlShape).describe('Crawl options of POST /v2/crawl (limit defaults to 100 in a monitor).');

const targetId = z.string().min(1).max(100).regex(/^[\w.:-]+$/, 'letters, digits and . _ : - only').optional().describe('Stable id of the target; generated when absent. Keep it on update to keep its history.');

const SEARCH_WINDOWS = ['5m', '15m', '1h', '6h', '24h', '7d'] as const;

const targetSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      id: targetId,
      type: z.literal('scrape'),
      urls: z.array(url).min(1, 'a scrape target needs at least one URL').max(100),
      scrapeOptions: monitorScrapeOptionsSchema.prefault({}),
    }),
    z.strictObject({
      id: targetId,
      type: z.literal('crawl'),
      url,
      crawlOptions: monitorCrawlOptionsSchema.prefault({}),
      scrapeOptions: monitorScrapeOptionsSchema.prefault({}),
    }),
    z.strictObject({
      id: targetId,
      type: z.literal('search'),
      queries: z.array(z.string().trim().min(1).max(500)).min(1, 'a search target needs at least one query').max(20),
      searchWindow: z.enum(SEARCH_WINDOWS).default('24h').describe('Only results fetched within this window; windows under an hour read as the last hour.'),
      includeDomains: z.array(z.string().min(1).max(253)).max(50).default([]),
      excludeDomains: z.array(z.string().min(1).max(253)).max(50).default([]),
      maxResults: z.number().int().min(1).max(50).default(10),
    }),
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? `a target's type is "scrape", "crawl" or "search"` : undefined) },
);
type TargetInput = z.infer<typeof targetSchema>;

const webhookSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).describe('Where events are POSTed, signed with X-Webhook-Signature as crawl webhooks are.'),
  headers: z.record(z.string(), z.string()).default({}),
  metadata: z.record(z.string(), z.string()).default({}).describe('Echoed in every event.'),
  events: z.array(z.enum(MONITOR_WEBHOOK_EVENTS)).min(1).default([...MONITOR_WEBHOOK_EVENTS]),
});

const notificationSchema = z.strictObject({
  email: z
    .strictObject({
      enabled: z.boolean().default(true),
      recipients: z.array(z.email()).max(20).default([]),
      includeDiffs: z.boolean().default(false),
    })
    .optional()
    .describe('Mail the changes of each check (needs SMTP_URL on the server).'),
});

const commonFields = {
  webhook: webhookSchema.optional(),
  notification: notificationSchema.optional(),
  retentionDays: z.number().int().min(1).max(365).optional().describe('Days checks and snapshots are kept (default 30).'),
  judgeEnabled: z.boolean().optional().describe('Have the configured LLM judge each change against `goal` (default: on when a goal is given).'),
  ...clientTags,
};

export const createMonitorSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  schedule: scheduleSchema.refine((s) => s.cron || s.text, 'give schedule.cron or schedule.text'),
  targets: z.array(targetSchema).min(1, 'a monitor needs at least one target').max(20),
  goal: z.string().trim().min(1).max(2_000).optional().describe('What matters, in words: the LLM judge marks each change meaningful or not.'),
  ...commonFields,
});
export type CreateMonitorRequest = z.infer<typeof createMonitorSchema>;

export const updateMonitorSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  status: z.enum(['active', 'paused']).optional().describe('"paused" pauses the Schedule; "active" resumes it.'),
  schedule: scheduleSchema.optional(),
  targets: z.array(targetSchema).min(1, 'a monitor needs at least one target').max(20).optional(),
  goal: z.string().trim().min(1).max(2_000).nullable().optional(),
  ...commonFields,
  webhook: webhookSchema.nullable().optional(),
  notification: notificationSchema.nullable().optional(),
});
export type UpdateMonitorRequest = z.infer<typeof updateMonitorSchema>;

/** `{}` or `{origin}`: the SDK posts its client tag with a run. */
export const runMonitorSchema = z.strictObject({ ...clientTags }).prefault({});

/** The schedule as stored: the cron (from `text` when given) and the time zone, or a 400 saying what is wrong. */
export function scheduleOf(s: z.infer<typeof scheduleSchema>, previous?: { cron: string; timezone: string }): { cron: string; timezone: string } {
  const timezone = s.timezone ?? previous?.timezone ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw new AppError('BAD_REQUEST', `schedule.timezone "${timezone}" is not an IANA time zone (e.g. UTC, Europe/Paris, America/New_York)`, [{ path: 'schedule.timezone', message: 'unknown time zone' }]);
  }
  try {
    const cron = s.text ? cronFromText(s.text) : (s.cron ?? previous?.cron);
    if (!cron) throw new CronError('give schedule.cron or schedule.text');
    return { cron: parseCron(cron).expression, timezone };
  } catch (err) {
    if (err instanceof ScheduleTextError) throw new AppError('BAD_REQUEST', err.message, [{ path: 'schedule.text', message: err.message }]);
    if (err instanceof CronError) throw new AppError('BAD_REQUEST', `schedule.cron: ${err.message}`, [{ path: 'schedule.cron', message: err.message }]);
    throw err;
  }
}

/** Markdown is always scraped (the git-style diff compares it); JSON asked for makes per-field diffs. */
function diffModesOf(v2: V2ScrapeOptions): DiffModes {
  const names = v2.formats.map(formatName);
  const tracking = v2.formats.find((f): f is Extract<typeof f, { type: 'changeTracking' }> => typeof f !== 'string' && f.type === 'changeTracking');
  const json = names.includes('json') || Boolean(tracking?.modes.includes('json'));
  return { json, text: !json || names.includes('markdown') || Boolean(tracking?.modes.includes('git-diff')) };
}

/** The internal scrape options of a target: always fetched (maxAge 0), markdown always kept. */
function scrapePlanOf(v2: V2ScrapeOptions) {
  const { origin: _o, integration: _i, ...options } = v2;
  const plan = planV2Scrape(options);
  const formats = plan.options.formats.includes('markdown') ? plan.options.formats : [...plan.options.formats, 'markdown' as const];
  return { options: { ...plan.options, formats, maxAge: 0 }, output: plan.output };
}

/** Google-style windows the search providers take; under an hour reads as the last hour. */
const WINDOW_TBS: Record<(typeof SEARCH_WINDOWS)[number], string> = { '5m': 'qdr:h', '15m': 'qdr:h', '1h': 'qdr:h', '6h': 'qdr:h6', '24h': 'qdr:d', '7d': 'qdr:w' };

/** A target in the internal options the workflows take, with its URLs checked against the public-URL gate. */
async function planOf(target: TargetInput, id: string, gate: PublicUrlGate): Promise<TargetPlan> {
  if (target.type === 'scrape') {
    for (const u of target.urls) await checkTarget(gate, u);
    const { options, output } = scrapePlanOf(target.scrapeOptions);
    const urls = target.urls.map((u) => gate.parse(u).href);
    return { id, type: 'scrape', urls, options: { ...batchOptionsOf({ urls, ...options, ignoreInvalidURLs: false }, urls), v2Output: output }, diff: diffModesOf(target.scrapeOptions) };
  }
  if (target.type === 'crawl') {
    await checkTarget(gate, target.url);
    const { options, output } = scrapePlanOf(target.scrapeOptions);
    const crawl = v2CrawlOptionsOf({ ...target.crawlOptions, url: gate.parse(target.url).href, limit: target.crawlOptions.limit ?? 100, scrapeOptions: target.scrapeOptions });
    return { id, type: 'crawl', url: crawl.url, options: { ...crawl, scrapeOptions: options, v2Output: output }, diff: diffModesOf(target.scrapeOptions) };
  }
  const { query: _q, ...options } = searchOptionsOf(searchRequestSchema.parse({ query: target.queries[0], limit: target.maxResults, tbs: WINDOW_TBS[target.searchWindow], ignoreInvalidURLs: true }));
  return { id, type: 'search', queries: target.queries, options, includeDomains: target.includeDomains, excludeDomains: target.excludeDomains };
}

/** The targets as stored and answered (each with its id), and their plans. */
export async function targetsOf(targets: TargetInput[], gate: PublicUrlGate): Promise<{ targets: Record<string, unknown>[]; plans: TargetPlan[] }> {
  const ids = targets.map((t) => t.id ?? `target-${randomUUID().slice(0, 8)}`);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new AppError('BAD_REQUEST', `Two targets have the id "${duplicate}"`, [{ path: 'targets', message: `duplicate id ${duplicate}` }]);
  const plans = await Promise.all(targets.map((t, i) => planOf(t, ids[i]!, gate)));
  return { targets: targets.map((t, i) => ({ ...t, id: ids[i] })), plans };
}

/** The webhook as stored; its URL must pass the public-URL gate, as any address the service calls. */
export function webhookOf(w: z.infer<typeof webhookSchema>, gate: PublicUrlGate): MonitorWebhook {
  return { url: gate.parse(w.url).href, headers: w.headers, metadata: w.metadata, events: w.events };
}

/** Email needs an SMTP server and someone to mail. */
export function notificationOf(n: z.infer<typeof notificationSchema>, config: Pick<Config, 'smtp'>): MonitorNotification {
  if (n.email?.enabled) {
    if (!config.smtp) {
      throw new AppError('BAD_REQUEST', 'Email notifications need an SMTP server, and none is configured: set SMTP_URL and SMTP_FROM on the API and worker, or leave notification.email out (webhooks work without it).', [
        { path: 'notification.email', message: 'SMTP is not configured' },
      ]);
    }
    if (n.email.recipients.length === 0) throw new AppError('BAD_REQUEST', 'notification.email needs recipients: this service has no team addresses to mail by default', [{ path: 'notification.email.recipients', message: 'empty' }]);
  }
  return n;
}

/** A goal is judged by the LLM; judging needs both a goal and an LLM. */
export function judgeOf(goal: string | null | undefined, judgeEnabled: boolean | undefined, config: Pick<Config, 'llm'>): boolean {
  const judge = judgeEnabled ?? Boolean(goal);
  if (judge && !goal) throw new AppError('BAD_REQUEST', 'judgeEnabled needs a goal: say in words what changes matter', [{ path: 'goal', message: 'required with judgeEnabled' }]);
  if (judge && !config.llm) {
    throw new AppError(
      'LLM_NOT_CONFIGURED',
      'Judging changes against a goal needs an LLM, and none is configured. Leave goal out (or set judgeEnabled: false), or set LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY if the server wants one) on the API and worker.',
    );
  }
  return judge;
}
