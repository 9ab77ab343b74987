import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, fixture } from '../helpers/api';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver';
import { startOwnStack } from '../helpers/own-stack';
import type { Stack } from '../helpers/stack';

/** A stack of this file's own, exporting traces to a collector the test runs. */
let receiver: OtlpReceiver;
let stack: Stack;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  stack = await startOwnStack('tracing', {
    allowPrivateHosts: [new URL(inject('fixtureUrl')).host],
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
  });
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

async function spanNamed(name: string, traceId?: string): Promise<ReceivedSpan> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const span = receiver.spans.find((s) => s.name === name && (!traceId || s.traceId === traceId));
    if (span) return span;
    if (Date.now() > deadline) throw new Error(`no span ${name} in ${JSON.stringify(receiver.spans.map((s) => s.name))}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Whether `descendant` hangs under `ancestor` in the spans received (not under a new root). */
function descendsFrom(descendant: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  const byId = new Map(receiver.spans.map((s) => [s.spanId, s]));
  for (let s: ReceivedSpan | undefined = descendant; s?.parentSpanId; s = byId.get(s.parentSpanId)) if (s.parentSpanId === ancestor.spanId) return true;
  return false;
}

describe('OpenTelemetry traces with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  it("one trace runs from a scrape's request through its workflow to its activity, in the API's own scrape worker", async () => {
    const scraped = await api('/v1/scrape', { baseUrl: stack.apiUrl, body: { url: fixture('/article') } });
    expect(scraped.status).toBe(200);

    const request = await spanNamed('POST /v1/scrape');
    expect(request.service).toBe('wcs-api');
    const start = await spanNamed('StartWorkflow:scrapeWorkflow', request.traceId);
    expect(start).toMatchObject({ service: 'wcs-api', parentSpanId: request.spanId });
    // Started eagerly: the API's own worker ran the workflow and its local activity.
    const run = await spanNamed('RunWorkflow:scrapeWorkflow', request.traceId);
    expect(run.service).toBe('wcs-api');
    const activity = await spanNamed('RunActivity:scrapePageHttp', request.traceId);
    expect(activity.service).toBe('wcs-api');
    expect(descendsFrom(activity, request)).toBe(true);
  });

  it("one trace runs from a crawl's request through its workflow to its activities, across the API and worker processes", async () => {
    const started = await api('/v1/crawl', { baseUrl: stack.apiUrl, body: { url: fixture('/article'), limit: 1 } });
    expect(started.status).toBe(200);

    const request = await spanNamed('POST /v1/crawl');
    expect(request.service).toBe('wcs-api');
    const run = await spanNamed('RunWorkflow:crawlWorkflow', request.traceId);
    expect(run.service).toBe('wcs-worker');
    const activity = await spanNamed('RunActivity:crawlBatch', request.traceId);
    expect(activity.service).toBe('wcs-worker');
    expect(descendsFrom(activity, request)).toBe(true);
  });
});
