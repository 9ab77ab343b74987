/**
 * `npm run bench search`: POST /v1/search with the embedded `local` provider over a crawled
 * corpus of 500+ pages with 30 hand-judged queries (test/fixtures/search-corpus.ts).
 *
 * 1. Quality: nDCG@5 (graded relevance) and MRR (of the page that answers each query) for
 *    (a) Postgres full-text rank alone, the local provider's own order, and (b) the final
 *    blend the API returns.
 * 2. Speed: p50/p95 latency of search-only and search+scrape(5) through the API, beside the
 *    peer, the same work done in-process with no workflow: the same full-text query, then
 *    for scrape(5) a parallel fetch of the five pages through Readability + turndown.
 */
import { connectDatabase } from '../../src/db/client';
import { LocalIndexProvider } from '../../src/search/providers/local-index-provider';
import { candidatesWanted } from '../../src/search/search-candidates';
import { startFixtureServer } from '../fixtures/fixture-server';
import { SEARCH_CORPUS_PAGES, SEARCH_QUERIES, searchCorpusRoutes } from '../fixtures/search-corpus';
import { startEnvironment } from '../helpers/environment';
import { machine, percentile, table } from './measure';
import { readabilityMarkdown } from './peers/readability-markdown';
import { ndcgAt, reciprocalRank } from './ranking-metrics';

export const description = 'search: nDCG@5 and MRR of full-text rank alone vs the blend on a 500+ page crawled corpus; p50/p95 of search-only and search+scrape(5) vs an in-process peer';

const ROUNDS = 3;
const LIMIT = 5;
const ms = (v: number) => `${v.toFixed(0)} ms`;

async function post(apiUrl: string, key: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${apiUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await response.json();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await fn();
  return [performance.now() - started, value];
}

export async function run(): Promise<void> {
  const routes = searchCorpusRoutes();
  const site = await startFixtureServer(
    Object.fromEntries(Object.entries(routes).map(([path, html]) => [path, (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)])),
  );
  const env = await startEnvironment({ kind: 'bench', allowPrivateHosts: [`127.0.0.1:${site.port}`], log: (m) => console.log(`  [setup] ${m}`) });
  const database = connectDatabase(env.databaseUrl, 4);
  const { apiUrl } = env.stack;
  const { key } = env.team;
  const pathOf = (url: string) => (url.startsWith(site.url) ? new URL(url).pathname : url);
  try {
    console.log(`machine: ${machine()}`);
    const crawl = await post(apiUrl, key, '/v1/crawl', { url: `${site.url}/`, limit: SEARCH_CORPUS_PAGES + 50, maxDepth: 5, maxConcurrency: 20 });
    let status: any;
    do {
      await new Promise((r) => setTimeout(r, 1_000));
      status = await (await fetch(`${apiUrl}/v1/crawl/${crawl.id}?limit=1`, { headers: { authorization: `Bearer ${key}` } })).json();
    } while (status.status === 'scraping');
    console.log(`corpus: ${SEARCH_CORPUS_PAGES} pages served, ${status.completed} crawled (${status.status}), ${SEARCH_QUERIES.length} judged queries\n`);

    // 1. Quality.
    const local = new LocalIndexProvider(database.db, 30_000);
    const scores = { fts: { ndcg: [] as number[], rr: [] as number[] }, blend: { ndcg: [] as number[], rr: [] as number[] } };
    const misses: string[] = [];
    for (const q of SEARCH_QUERIES) {
      const fts = (await local.search({ query: q.query, candidates: candidatesWanted(LIMIT), lang: 'en', country: 'us' }, AbortSignal.timeout(30_000))).hits.map((h) => pathOf(h.url));
      const blend = (await post(apiUrl, key, '/v1/search', { query: q.query, limit: LIMIT })).data.map((r: { url: string }) => pathOf(r.url));
      scores.fts.ndcg.push(ndcgAt(fts, q.relevant, 5));
      scores.fts.rr.push(reciprocalRank(fts, q.relevant, 3));
      scores.blend.ndcg.push(ndcgAt(blend, q.relevant, 5));
      scores.blend.rr.push(reciprocalRank(blend, q.relevant, 3));
      if (reciprocalRank(blend, q.relevant, 3) < 1) misses.push(`"${q.query}": answer at ${blend.findIndex((p: string) => q.relevant[p] === 3) + 1 || '-'} (full-text: ${fts.findIndex((p) => q.relevant[p] === 3) + 1 || '-'})`);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log('quality (30 queries, limit 5; MRR of the page that answers each query)');
    table(
      ['ranking', 'nDCG@5', 'MRR'],
      [
        ['(a) Postgres full-text rank alone', mean(scores.fts.ndcg).toFixed(3), mean(scores.fts.rr).toFixed(3)],
        ['(b) final blend (provider rank + BM25)', mean(scores.blend.ndcg).toFixed(3), mean(scores.blend.rr).toFixed(3)],
      ],
    );
    console.log(`  blend / full-text: nDCG@5 ${(mean(scores.blend.ndcg) / mean(scores.fts.ndcg)).toFixed(2)}x, MRR ${(mean(scores.blend.rr) / mean(scores.fts.rr)).toFixed(2)}x`);
    if (misses.length > 0) console.log(`  answer not first (${misses.length}): ${misses.join('; ')}`);

    // 2. Speed, ours and the peer's, one query at a time.
    const peerMarkdown = readabilityMarkdown();
    const peer = async (query: string, scrape: boolean) => {
      const hits = (await local.search({ query, candidates: LIMIT, lang: 'en', country: 'us' }, AbortSignal.timeout(30_000))).hits;
      if (scrape) await Promise.all(hits.map(async (h) => peerMarkdown(await (await fetch(h.url)).text(), h.url)));
    };
    const latencies: Record<string, number[]> = { 'ours search-only': [], 'peer search-only': [], 'ours search+scrape(5)': [], 'peer search+scrape(5)': [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const q of SEARCH_QUERIES) {
        latencies['ours search-only']!.push((await timed(() => post(apiUrl, key, '/v1/search', { query: q.query, limit: LIMIT })))[0]);
        latencies['peer search-only']!.push((await timed(() => peer(q.query, false)))[0]);
        latencies['ours search+scrape(5)']!.push((await timed(() => post(apiUrl, key, '/v1/search', { query: q.query, limit: LIMIT, scrapeOptions: { formats: ['markdown'] } })))[0]);
        latencies['peer search+scrape(5)']!.push((await timed(() => peer(q.query, true)))[0]);
      }
    }
    console.log(`\nlatency (${SEARCH_QUERIES.length} queries x ${ROUNDS} rounds, one at a time)`);
    const p = (name: string, q: number) => percentile(latencies[name]!, q);
    table(
      ['path', 'ours p50', 'ours p95', 'peer p50', 'peer p95', 'ours / peer (p50)'],
      ['search-only', 'search+scrape(5)'].map((kind) => [
        kind,
        ms(p(`ours ${kind}`, 50)),
        ms(p(`ours ${kind}`, 95)),
        ms(p(`peer ${kind}`, 50)),
        ms(p(`peer ${kind}`, 95)),
        `${(p(`ours ${kind}`, 50) / p(`peer ${kind}`, 50)).toFixed(1)}x`,
      ]),
    );
  } finally {
    await database.close();
    await env.stop();
    await site.close();
  }
}
