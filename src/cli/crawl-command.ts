import { parseArgs } from 'node:util';
import { bar, ProgressLine } from './progress-line';
import { writeCrawlOutput } from './crawl-output';
import { cliApiKey, cliApiUrl } from './runtime-info';

async function call(path: string, init: { method?: string; body?: unknown } = {}): Promise<any> {
  const response = await fetch(`${cliApiUrl()}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: { authorization: `Bearer ${cliApiKey()}`, 'content-type': 'application/json' },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  const body = text.startsWith('{') ? JSON.parse(text) : text;
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}${body?.error ? `: ${body.error}` : ''}`);
  return body;
}

/**
 * `wcs crawl <url> [--limit N] [--depth N] [--out DIR]`: submits a crawl through the API,
 * shows live progress, then writes one markdown file per page and graph.dot into DIR.
 */
export async function crawlCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { limit: { type: 'string' }, depth: { type: 'string' }, out: { type: 'string' } },
  });
  const url = positionals[0];
  if (!url) throw new Error('usage: wcs crawl <url> [--limit N] [--depth N] [--out DIR]');
  const body: Record<string, unknown> = { url, scrapeOptions: { formats: ['markdown'] } };
  if (values.limit) body.limit = Number(values.limit);
  if (values.depth) body.maxDepth = Number(values.depth);
  const { id } = await call('/v1/crawl', { body });
  console.error(`crawl ${id} started (Temporal workflow crawl-${id})`);

  const progress = new ProgressLine();
  const started = Date.now();
  const interrupt = () => {
    void call(`/v1/crawl/${id}`, { method: 'DELETE' }).finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  let status: any;
  for (;;) {
    status = await call(`/v1/crawl/${id}?limit=1`);
    const settled = status.completed + status.failed;
    const queued = status.total - settled;
    const rate = settled / Math.max(1, (Date.now() - started) / 1000);
    progress.update(`${bar(status.total ? settled / status.total : 0)} ${status.completed} done · ${status.failed} failed · ${queued} queued · ${rate.toFixed(1)} pages/s`);
    if (status.status !== 'scraping') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  process.off('SIGINT', interrupt);
  progress.done(`crawl ${status.status}: ${status.completed} pages, ${status.failed} failed, ${status.creditsUsed} credits, ${((Date.now() - started) / 1000).toFixed(1)} s`);

  if (values.out) {
    const pages: { url: string; markdown: string }[] = [];
    for (let next: string | undefined = `/v1/crawl/${id}`; next; ) {
      const page = await call(next);
      pages.push(...page.data.map((d: any) => ({ url: d.metadata.sourceURL, markdown: d.markdown ?? '' })));
      next = page.next ? new URL(page.next).pathname + new URL(page.next).search : undefined;
    }
    const dot = await call(`/v1/crawl/${id}/graph?format=dot`);
    const written = writeCrawlOutput(values.out, pages, dot);
    console.error(`wrote ${written.length} markdown files and graph.dot to ${values.out}`);
  }
  if (status.status !== 'completed') process.exitCode = 1;
}
