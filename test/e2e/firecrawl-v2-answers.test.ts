import Firecrawl, { type Document, type SearchResultWeb } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadWcxb } from '../content/wcxb-corpus';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { api } from '../helpers/api';

/**
 * The question, highlights and query formats with no LLM configured (the shared stack):
 * answered from the page's own passages, through firecrawl-js 4.42 unmodified.
 */
let site: FixtureServer;
const at = (path: string) => `${site.url}${path}`;

const BEAM = 'A Fresnel lens concentrates light into a narrow beam visible for more than twenty nautical miles, which made it the standard optic of coastal lights worldwide.';
const EARLY = 'Early lighthouses burned wood or coal in open fires. Later keepers tended oil lamps whose light was focused by polished reflectors.';
const KEEPERS = 'Automation in the twentieth century retired most keepers. Many towers remain active aids to navigation.';
const ARTICLE = `<h1>Lamps and lenses</h1>
<p>${EARLY}</p>
<p>${BEAM}</p>
<p>${KEEPERS}</p>`;

/** A real article (WCXB 0167, nucamp.co) whose summary states the industry's growth. */
const [realArticle] = loadWcxb(process.env.WCXB_DIR ?? '/work/shared/corpora/wcxb-dev', ['0167']);
const REAL_PATH = new URL(realArticle!.url).pathname;

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav><main>${body}</main><footer>Lamp Society footer</footer></body></html>`;

beforeAll(async () => {
  site = await startFixtureServer(
    {
      '/lamps': (_req, res) => html(res, page('Lamps and lenses', ARTICLE)),
      '/lamps-again': (_req, res) => html(res, page('Lamps again', ARTICLE)),
      [REAL_PATH]: (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(realArticle!.html),
    },
    inject('siteHosts')[0],
  );
});
afterAll(() => site?.close());

function sdk(): Firecrawl {
  return new Firecrawl({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl') });
}

/** Whitespace aside, as a reader compares a quote with the page. */
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('question, highlights and query without an LLM', () => {
  it('question: answers with the passage that answers it, a quote of the page, at the price of the page', async () => {
    const doc = await sdk().scrape(at('/lamps'), { formats: ['markdown', { type: 'question', question: 'How far is the beam of a Fresnel lens visible?' }], maxAge: 0 });
    expect(doc.answer).toBe(BEAM);
    expect(doc.markdown).toContain(doc.answer);
    expect(doc.highlights).toBeUndefined();
    expect(doc.metadata?.creditsUsed).toBe(1);
  });

  it('highlights: the main content’s passages most relevant to the query, best first, whole sentences, never the page chrome', async () => {
    const doc = await sdk().scrape(at('/lamps'), { formats: [{ type: 'highlights', query: 'keepers of lighthouses' }], maxAge: 0 });
    const passages = doc.highlights!.split('\n\n');
    // The passage with both words of the query first, then the one with one.
    expect(passages[0]).toBe(EARLY);
    expect(passages[1]).toBe(KEEPERS);
    expect(doc.highlights).not.toContain('footer');
    expect(doc.markdown).toBeUndefined();
    expect(doc.answer).toBeUndefined();
  });

  it('puts a heading that matches after the sentences that do: it names the topic but answers nothing', async () => {
    const doc = await sdk().scrape(at('/lamps'), { formats: [{ type: 'highlights', query: 'lamps' }, { type: 'question', question: 'lamps?' }] });
    expect(doc.answer).toBe(EARLY);
    expect(doc.highlights!.split('\n\n')).toEqual([EARLY, 'Lamps and lenses']);
  });

  it('query (as the Vercel AI SDK tools send it): the best passage as the answer, in either mode', async () => {
    for (const mode of [undefined, 'freeform', 'directQuote'] as const) {
      const doc = await sdk().scrape(at('/lamps'), { formats: [{ type: 'query', prompt: 'What made the Fresnel lens the standard optic?', ...(mode && { mode }) }] });
      expect(doc.answer).toBe(BEAM);
    }
  });

  it('says so, and invents nothing, when no passage matches', async () => {
    const doc = await sdk().scrape(at('/lamps'), { formats: [{ type: 'question', question: 'quasar telescope?' }, { type: 'highlights', query: 'quasar' }] });
    expect(doc.answer).toBeUndefined();
    expect(doc.highlights).toBeUndefined();
    expect(doc.warning).toContain('No passage of the page matches the question');
    expect(doc.warning).toContain('No passage of the page matches the highlights query');
  });

  it('answers on a real article: highlights hold the passage that answers, the answer is a quote of the page', async () => {
    const query = 'How fast is the coding bootcamp industry growing each year?';
    // `text` (ours) is the page as a reader sees it; its markdown carries the links' targets inside the sentence.
    const { body } = await api('/v2/scrape', { body: { url: at(REAL_PATH), formats: ['text', { type: 'question', question: query }, { type: 'highlights', query }], maxAge: 0 } });
    const doc = body.data as Document & { text: string };
    expect(doc.answer).toContain('21.17% annually');
    expect(doc.text).toContain(doc.answer);
    expect(squash(realArticle!.mainContent)).toContain(squash(doc.answer!));
    expect(doc.highlights).toContain(doc.answer);
  });

  it('answers in batch scrapes, crawls and parse', async () => {
    const formats = [{ type: 'question' as const, question: 'How far is the beam of a Fresnel lens visible?' }];
    const batch = await sdk().batchScrape([at('/lamps'), at('/lamps-again')], { options: { formats }, pollInterval: 1, timeout: 60 });
    expect(batch.data.map((d: Document) => d.answer)).toEqual([BEAM, BEAM]);

    const crawl = await sdk().crawl(at('/lamps'), { limit: 1, scrapeOptions: { formats: [{ type: 'highlights', query: 'Fresnel beam' }] }, pollInterval: 1, timeout: 60 });
    expect(crawl.data[0]!.highlights!.split('\n\n')[0]).toBe(BEAM);

    const parsed = await sdk().parse({ data: Buffer.from(page('Lamps', ARTICLE)), filename: 'lamps.html', contentType: 'text/html' }, { formats: [{ type: 'question', question: 'How far is a Fresnel beam visible?' }] });
    expect(parsed.answer).toBe(BEAM);
  });

  it('answers in search results (scrapeOptions formats query)', async () => {
    await sdk().scrape(at('/lamps'), { formats: ['markdown'] });
    const results = await sdk().search('Fresnel lens beam nautical miles', { limit: 10, scrapeOptions: { formats: [{ type: 'query', prompt: 'How far is the beam of a Fresnel lens visible?' }] } });
    const ours = (results.web as Document[]).find((r) => (r as { url?: string }).url?.startsWith(site.url));
    expect(ours?.answer).toBe(BEAM);
  });

  it("search highlights (SearchRequest.highlights, on by default): a result's description is its page's passages for the query, read from the local index when unscraped; false keeps the snippet", async () => {
    await sdk().scrape(at('/lamps'), { formats: ['markdown'] });
    const ours = (data: Awaited<ReturnType<Firecrawl['search']>>) => (data.web as SearchResultWeb[]).find((r) => r.url.startsWith(site.url))!;
    const on = await sdk().search('Fresnel lens beam nautical miles', { limit: 10, highlights: true });
    expect(ours(on).description!.split('\n\n')[0]).toBe(BEAM);
    const byDefault = await sdk().search('Fresnel lens beam nautical miles', { limit: 10 });
    expect(ours(byDefault).description).toBe(ours(on).description);
    const off = await sdk().search('Fresnel lens beam nautical miles', { limit: 10, highlights: false });
    expect(ours(off).description).not.toContain(BEAM);
  });
});

describe('refusals that name what is wrong', () => {
  it('an unknown object format names the valid types', async () => {
    const { status, body } = await api('/v2/scrape', { body: { url: at('/lamps'), formats: [{ type: 'answer', question: 'x' }] } });
    expect(status).toBe(400);
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.error).toContain('unknown format type "answer"');
    for (const type of ['json', 'screenshot', 'changeTracking', 'attributes', 'question', 'highlights', 'query']) expect(body.error).toContain(`"${type}"`);
  });

  it('the SDK passes the refusal on: audio is not served here', async () => {
    await expect(sdk().scrape(at('/lamps'), { formats: ['audio'] })).rejects.toThrow(/the "audio" format is not served here/);
  });

  it('audio and video are refused by name, saying this deployment does not produce them', async () => {
    for (const format of ['audio', { type: 'video' }]) {
      const { status, body } = await api('/v2/scrape', { body: { url: at('/lamps'), formats: ['markdown', format] } });
      expect(status).toBe(400);
      expect(body.error).toMatch(/the "(audio|video)" format is not served here: .*which this deployment does not produce/);
    }
  });

  it('question without its question, and question with query, say which field is wrong', async () => {
    const missing = await api('/v2/scrape', { body: { url: at('/lamps'), formats: [{ type: 'question' }] } });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([expect.objectContaining({ path: 'formats.0.question' })]);
    const both = await api('/v2/scrape', { body: { url: at('/lamps'), formats: [{ type: 'question', question: 'a' }, { type: 'query', prompt: 'b' }] } });
    expect(both.status).toBe(400);
    expect(both.body.error).toContain('question and query both answer in `answer`');
  });
});
