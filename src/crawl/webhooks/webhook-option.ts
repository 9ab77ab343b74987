import { z } from 'zod';

/** A webhook as a job keeps it, whichever shape the caller sent. */
export interface WebhookTarget<E extends string> {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, unknown>;
  events: E[];
}

/**
 * The `webhook` option of a job that sends `events` (crawl, batch scrape, agent): a URL, or
 * {url, headers?, metadata?, events?} as Firecrawl's SDK sends it. `normalise` gives one shape,
 * every event when none were named.
 */
export function webhookOption<const E extends readonly [string, ...string[]]>(events: E, description: string) {
  const schema = z
    .union([
      z.url({ protocol: /^https?$/ }),
      z.strictObject({
        url: z.url({ protocol: /^https?$/ }),
        headers: z.record(z.string(), z.string()).optional(),
        metadata: z.record(z.string(), z.unknown()).optional(),
        events: z.array(z.enum(events)).min(1).optional(),
      }),
    ])
    .describe(description);
  const normalise = (w: z.infer<typeof schema>): WebhookTarget<E[number]> =>
    typeof w === 'string'
      ? { url: w, headers: {}, metadata: {}, events: [...events] }
      : { url: w.url, headers: w.headers ?? {}, metadata: w.metadata ?? {}, events: w.events ?? [...events] };
  return { schema, normalise };
}
