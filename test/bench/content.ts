/**
 * `npm run bench content`: main-content extraction on real pages, quality and speed, ours beside
 * peers in one run. The corpus is the WCXB development sample (../shared/corpora/wcxb-dev, 280
 * pages, 40 of each of 7 page types; pages and ground truth: WCXB, Murrough Foley 2026,
 * CC-BY-4.0), served from 127.0.0.1. Each system fetches each page's bytes from that server,
 * then extracts; only the extraction is timed, pages one after another on one thread. Quality is
 * the benchmark's word F1 against the ground truth's main content (markdown output is scored
 * after markdownToPlain; ours is scored on its text, and its markdown is scored apart). Peers: @mozilla/readability on the DOM our pipeline parses (alone, and
 * with turndown: the speed reference ours must stay within 1.5x of), defuddle on linkedom, and
 * go-trafilatura in a Go process of its own.
 *
 * Subsets: CONTENT_BENCH_IDS=0035,0053 or CONTENT_BENCH_TYPES=forum,product.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { decodeBody } from '../../src/scrape/decode-body';
import { parsePage } from '../../src/scrape/html/parse-document';
import { processBody } from '../../src/scrape/process/process-body';
import { PAGE_TYPES, loadWcxb, type WcxbPage } from '../content/wcxb-corpus';
import { wordF1 } from '../content/word-f1';
import { startFixtureServer } from '../fixtures/fixture-server';
import { markdownToPlain } from './markdown-to-plain';
import { machine, percentile, rssMb, sampleRss, table } from './measure';
import { startGoTrafilatura } from './peers/go-trafilatura-peer';

export const description =
  'main-content extraction on 280 real pages (WCXB, Murrough Foley 2026, CC-BY-4.0): word F1 by page type and pages/s, ours vs Readability, Readability+turndown, defuddle, go-trafilatura';

/** Pages each system extracts, unscored and untimed, before its measured pass (JIT, lazy loading). */
const WARM_UP = 5;
const WORST = 15;

interface Extraction {
  text: string;
  ms: number;
  /** Ours only: its markdown output, scored beside its text. */
  markdown?: string;
  /** Ours only, when the pipeline reports them. */
  pageType?: string;
  method?: string;
}

interface System {
  name: string;
  /** The process whose RSS is the system's memory. */
  pid: number;
  extract(page: WcxbPage, body: Buffer, contentType: string): Promise<Extraction>;
}

interface PageResult {
  page: WcxbPage;
  f1: number;
  precision: number;
  recall: number;
  /** The exception's message, when the system threw. */
  error?: string;
  extraction?: Extraction;
}

interface SystemRun {
  name: string;
  /** Set when the system could not run at all. */
  unavailable?: string;
  results: PageResult[];
  rssStartMb: number;
  rssPeakMb: number;
}

/** Times a synchronous in-process extraction. */
function inProcess(name: string, fn: (html: string) => string): System {
  return {
    name,
    pid: process.pid,
    async extract(_page, body, contentType) {
      const started = performance.now();
      const text = fn(decodeBody(body, contentType, true).text);
      return { text, ms: performance.now() - started };
    },
  };
}

const ours: System = {
  name: 'ours',
  pid: process.pid,
  async extract(page, body, contentType) {
    const started = performance.now();
    const r = await processBody(body, contentType, page.url, { formats: ['markdown', 'text'], onlyMainContent: true, removeBase64Images: true });
    const ms = performance.now() - started;
    const { pageType } = r.metadata;
    const method = r.mainContent?.method;
    return { text: r.text, markdown: r.markdown, ms, ...(pageType && { pageType }), ...(method && { method }) };
  },
};

const readability = inProcess('readability', (html) => new Readability(parsePage(html)).parse()?.textContent ?? '');

function readabilityTurndown(): System {
  const turndown = new TurndownService();
  return inProcess('readability+turndown', (html) => markdownToPlain(turndown.turndown(new Readability(parsePage(html)).parse()?.content ?? '')));
}

/** defuddle/node is published for `import` only; loaded once, before its pass. */
async function defuddle(): Promise<System> {
  const { Defuddle } = await import('defuddle/node');
  return {
    name: 'defuddle',
    pid: process.pid,
    async extract(page, body, contentType) {
      const started = performance.now();
      const { document } = parseHTML(decodeBody(body, contentType, true).text);
      // It logs the errors it recovers from (bad JSON-LD, selectors linkedom rejects); they would bury the report.
      const { error, warn } = console;
      console.error = console.warn = () => undefined;
      try {
        // useAsync off: it would otherwise fetch from third-party APIs when a page has little content.
        const result = await Defuddle(document as unknown as Document, page.url, { markdown: true, useAsync: false });
        return { text: markdownToPlain(result.content), ms: performance.now() - started };
      } finally {
        Object.assign(console, { error, warn });
      }
    },
  };
}

function selectPages(): WcxbPage[] {
  const ids = process.env.CONTENT_BENCH_IDS?.split(',').map((s) => s.trim()).filter(Boolean);
  const types = process.env.CONTENT_BENCH_TYPES?.split(',').map((s) => s.trim()).filter(Boolean);
  const all = loadWcxb();
  const unknown = ids?.filter((id) => !all.some((p) => p.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`CONTENT_BENCH_IDS: no WCXB page ${unknown.join(', ')}`);
  const pages = all.filter((p) => (!ids?.length || ids.includes(p.id)) && (!types?.length || types.includes(p.pageType)));
  if (pages.length === 0) throw new Error('no WCXB page matches CONTENT_BENCH_IDS and CONTENT_BENCH_TYPES');
  return pages;
}

async function runSystem(system: System, pages: WcxbPage[], baseUrl: string): Promise<SystemRun> {
  const fetchPage = async (page: WcxbPage) => {
    const response = await fetch(`${baseUrl}/${page.id}`);
    return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? 'text/html' };
  };
  for (const page of pages.slice(0, WARM_UP)) {
    const { body, contentType } = await fetchPage(page);
    await system.extract(page, body, contentType).catch(() => undefined);
  }
  const rssStartMb = rssMb(system.pid);
  // The sampler catches a peer process between pages; in-process extraction blocks its timer, so also read after each page.
  const sampler = sampleRss(system.pid, 100);
  let peak = rssStartMb;
  const results: PageResult[] = [];
  const started = performance.now();
  for (const page of pages) {
    const { body, contentType } = await fetchPage(page);
    try {
      const extraction = await system.extract(page, body, contentType);
      results.push({ page, ...wordF1(extraction.text, page.mainContent), extraction });
    } catch (err) {
      results.push({ page, f1: 0, precision: 0, recall: 0, error: err instanceof Error ? err.message : String(err) });
    }
    peak = Math.max(peak, rssMb(system.pid));
  }
  console.log(`  ${system.name}: ${pages.length} pages in ${((performance.now() - started) / 1000).toFixed(0)} s, fetches and scoring included`);
  return { name: system.name, results, rssStartMb, rssPeakMb: Math.max(peak, sampler.stop().peakMb) };
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
const f3 = (n: number) => n.toFixed(3);
const pct = (n: number) => `${(100 * n).toFixed(1)}%`;

function report(runs: SystemRun[], types: string[]): void {
  const ran = runs.filter((r) => !r.unavailable);
  const of = (r: SystemRun, type?: string) => r.results.filter((x) => !type || x.page.pageType === type);

  console.log('\nword F1, mean over pages (failed pages score 0)');
  table(
    ['system', ...types, 'overall'],
    runs.map((r) => (r.unavailable ? [r.name, r.unavailable, ...types.map(() => '')] : [r.name, ...[...types, undefined].map((t) => f3(mean(of(r, t).map((x) => x.f1))))])),
  );

  const oursMarkdown = runs.find((r) => r.name === 'ours' && r.results.some((x) => x.extraction?.markdown !== undefined));
  if (oursMarkdown) {
    const f1 = (x: PageResult) => (x.extraction?.markdown === undefined ? 0 : wordF1(markdownToPlain(x.extraction.markdown), x.page.mainContent).f1);
    console.log('\nours, markdown output (after markdownToPlain), word F1');
    table(['system', ...types, 'overall'], [['ours (markdown)', ...[...types, undefined].map((t) => f3(mean(of(oursMarkdown, t).map(f1))))]]);
  }

  console.log('\nby page type: mean word F1, precision, recall; share of pages that failed (threw)');
  const rows: (string | number)[][] = [];
  for (const type of [...types, undefined]) {
    for (const r of ran) {
      const xs = of(r, type);
      rows.push([type ?? 'overall', r.name, xs.length, f3(mean(xs.map((x) => x.f1))), f3(mean(xs.map((x) => x.precision))), f3(mean(xs.map((x) => x.recall))), pct(mean(xs.map((x) => (x.error !== undefined ? 1 : 0))))]);
    }
  }
  table(['type', 'system', 'pages', 'F1', 'precision', 'recall', 'failed'], rows);

  console.log('\nspeed: extraction only (fetch excluded), one page at a time; RSS of the extracting process (the Node rows share the bench process)');
  const msOf = (r: SystemRun) => r.results.flatMap((x) => (x.extraction ? [x.extraction.ms] : []));
  table(
    ['system', 'pages/s', 'mean', 'p50', 'p95', 'RSS at start', 'peak RSS'],
    runs.map((r) => {
      if (r.unavailable) return [r.name, r.unavailable, '', '', '', '', ''];
      const ms = msOf(r);
      const total = ms.reduce((a, b) => a + b, 0);
      return [r.name, (ms.length / (total / 1000)).toFixed(1), `${mean(ms).toFixed(1)} ms`, `${percentile(ms, 50).toFixed(1)} ms`, `${percentile(ms, 95).toFixed(1)} ms`, `${r.rssStartMb.toFixed(0)} MB`, `${r.rssPeakMb.toFixed(0)} MB`];
    }),
  );
  const oursRun = runs.find((r) => r.name === 'ours')!;
  const reference = runs.find((r) => r.name === 'readability+turndown')!;
  const ratio = mean(msOf(oursRun)) / mean(msOf(reference));
  console.log(`\nours / readability+turndown, mean extraction time per page: ${ratio.toFixed(2)}x (target: at most 1.5x)`);

  const detected = oursRun.results.filter((x) => x.extraction?.pageType !== undefined);
  if (detected.length > 0) {
    console.log(`\nours: page type detected vs. true type (${detected.length} pages report one)`);
    table(
      ['true type', 'pages', 'detected right', 'detected as'],
      [...types, undefined].map((type) => {
        const xs = detected.filter((x) => !type || x.page.pageType === type);
        const counts = new Map<string, number>();
        for (const x of xs) counts.set(x.extraction!.pageType!, (counts.get(x.extraction!.pageType!) ?? 0) + 1);
        const as = [...counts].sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`);
        return [type ?? 'all', xs.length, pct(mean(xs.map((x) => (x.extraction!.pageType === x.page.pageType ? 1 : 0)))), type ? as.join(', ') : ''];
      }),
    );
  }

  console.log(`\nours: the ${WORST} worst pages`);
  table(
    ['id', 'type', 'F1', 'P', 'R', 'detected type', 'method (or error)'],
    [...oursRun.results]
      .sort((a, b) => a.f1 - b.f1)
      .slice(0, WORST)
      .map((x) => [x.page.id, x.page.pageType, f3(x.f1), f3(x.precision), f3(x.recall), x.error !== undefined ? 'FAILED' : (x.extraction?.pageType ?? ''), x.error?.slice(0, 80) ?? x.extraction?.method ?? '']),
  );
}

export async function run(): Promise<void> {
  const pages = selectPages();
  const types = PAGE_TYPES.filter((t) => pages.some((p) => p.pageType === t));
  console.log(`corpus: ${pages.length} pages of the WCXB development sample (WCXB, Murrough Foley 2026, CC-BY-4.0), ${types.join(', ')}`);
  const empty = pages.filter((p) => !/[\p{L}\p{N}_]/u.test(p.mainContent)).map((p) => p.id);
  // The metric gives these 1 only to an empty extraction, 0 to anything else.
  if (empty.length > 0) console.log(`empty ground truth (no main content): ${empty.join(', ')}`);
  console.log(`machine: ${machine()}`);

  const server = await startFixtureServer(
    // No charset: the pages were saved without their headers, so each system sniffs as it would.
    Object.fromEntries(pages.map((p) => [`/${p.id}`, (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(p.html)])),
    '127.0.0.1',
    // Longer than any extraction: a page that blocks the loop must not leave the client a connection the server is closing.
    { keepAliveTimeoutMs: 600_000 },
  );
  const runs: SystemRun[] = [];
  try {
    for (const system of [ours, readability, readabilityTurndown(), await defuddle()]) {
      runs.push(await runSystem(system, pages, server.url));
    }
    console.log('  building go-trafilatura (if its sources changed)...');
    const go = startGoTrafilatura();
    if ('error' in go) {
      runs.push({ name: 'go-trafilatura', unavailable: `did not build: ${go.error}`, results: [], rssStartMb: 0, rssPeakMb: 0 });
    } else {
      try {
        runs.push(await runSystem({ name: 'go-trafilatura', pid: go.pid, extract: (page, body) => go.extract(page.id, page.url, body) }, pages, server.url));
      } finally {
        go.close();
      }
    }
  } finally {
    await server.close();
  }
  report(runs, types);
}
