import { z } from 'zod';

/** Limits on a scrape's actions (validated before anything runs). */
export const MAX_ACTIONS = 50;
export const MAX_TOTAL_WAIT_MS = 60_000;

const selector = z.string().min(1).max(500);

/** Actions as Firecrawl v1 defines them (`BaseScrapeOptions.actions`), minus `pdf`. */
export const actionSchema = z.discriminatedUnion('type', [
  z
    .strictObject({
      type: z.literal('wait'),
      milliseconds: z.number().int().min(1).max(MAX_TOTAL_WAIT_MS).optional(),
      selector: selector.optional(),
    })
    .refine((a) => (a.milliseconds === undefined) !== (a.selector === undefined), 'give exactly one of milliseconds and selector')
    .describe('Wait a number of milliseconds, or until an element matching `selector` is visible (at most 30 s).'),
  z
    .strictObject({
      type: z.literal('click'),
      selector,
      all: z.boolean().default(false).describe('Click every match, in document order; no match is not an error then.'),
    })
    .describe('Click the first element matching `selector`.'),
  z.strictObject({ type: z.literal('write'), text: z.string().max(10_000) }).describe('Type text into the focused element (click it first).'),
  z.strictObject({ type: z.literal('press'), key: z.string().min(1).max(50) }).describe('Press a key, e.g. "Enter" or "Control+A".'),
  z
    .strictObject({ type: z.literal('scroll'), direction: z.enum(['up', 'down']).default('down'), selector: selector.optional() })
    .describe('Scroll the page, or the element matching `selector`, by one screen.'),
  z
    .strictObject({ type: z.literal('screenshot'), fullPage: z.boolean().default(false), quality: z.number().int().min(1).max(100).optional() })
    .describe('Take a screenshot (JPEG when quality is given); its URL lands in `actions.screenshots`.'),
  z.strictObject({ type: z.literal('scrape') }).describe("Record the page's URL and HTML at this point in `actions.scrapes`."),
  z
    .strictObject({ type: z.literal('executeJavascript'), script: z.string().min(1).max(100_000) })
    .describe('Run a script as the body of an async function; what it returns lands in `actions.javascriptReturns`.'),
]);

export type Action = z.infer<typeof actionSchema>;

export const actionsSchema = z
  .array(actionSchema)
  .max(MAX_ACTIONS)
  .refine((actions) => totalWaitMs(actions) <= MAX_TOTAL_WAIT_MS, `waits may add up to at most ${MAX_TOTAL_WAIT_MS} ms`)
  .describe(`Browser actions run in order after the page loads, before its content is read (at most ${MAX_ACTIONS}; waits add up to at most 60 s).`);

export function totalWaitMs(actions: readonly Action[]): number {
  return actions.reduce((sum, a) => sum + (a.type === 'wait' ? (a.milliseconds ?? 0) : 0), 0);
}
