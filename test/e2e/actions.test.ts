import { FirecrawlAppV1 as FirecrawlApp } from '@mendable/firecrawl-js';
import { describe, expect, inject, it } from 'vitest';
import { SHOT } from '../fixtures/screenshot-pages';
import { api, fixture } from '../helpers/api';
import { dimensions, download, PNG_SIGNATURE } from '../helpers/images';

async function scrape(actions: unknown[], extra: Record<string, unknown> = {}) {
  return api('/v1/scrape', { body: { url: fixture('/shot/actions'), formats: ['markdown'], actions, ...extra } });
}

describe('POST /v1/scrape with actions', () => {
  it('clicks, then scrapes the changed DOM', async () => {
    const { status, body } = await scrape([{ type: 'scrape' }, { type: 'click', selector: '#reveal' }, { type: 'scrape' }]);
    expect(status).toBe(200);
    const { scrapes } = body.data.actions;
    expect(scrapes).toHaveLength(2);
    expect(scrapes[0].url).toBe(fixture('/shot/actions'));
    expect(scrapes[0].html).toContain('Nothing clicked yet.');
    expect(scrapes[1].html).toContain(SHOT.clickedText);
    expect(scrapes[1].html).not.toContain('Nothing clicked yet.');
    expect(body.data.markdown).toContain(SHOT.clickedText);
    expect(body.data.metadata).toMatchObject({ renderer: 'browser', creditsUsed: 2 });
    expect(body.data.actions).toMatchObject({ screenshots: [], javascriptReturns: [] });
  });

  it('types into a field, presses keys and waits', async () => {
    const { body } = await scrape([
      { type: 'click', selector: '#name' },
      { type: 'write', text: 'lighthouse' },
      { type: 'press', key: 'Backspace' },
      { type: 'wait', milliseconds: 50 },
      { type: 'wait', selector: '#echo' },
      { type: 'scroll', direction: 'down' },
    ]);
    expect(body.data.markdown).toContain('Typed: lighthous');
    expect(body.data.markdown).not.toContain('Typed: lighthouse');
  });

  it('returns what executeJavascript returns, in order', async () => {
    const { body } = await scrape([
      { type: 'executeJavascript', script: 'return document.title' },
      { type: 'executeJavascript', script: 'await new Promise((r) => setTimeout(r, 10)); return { n: 6 * 7, list: [1, 2] };' },
      { type: 'executeJavascript', script: "document.getElementById('status').textContent = 'Set by a script';" },
    ]);
    expect(body.data.actions.javascriptReturns).toEqual([
      { type: 'string', value: SHOT.scriptValue },
      { type: 'object', value: { n: 42, list: [1, 2] } },
      { type: 'undefined', value: null },
    ]);
    expect(body.data.markdown).toContain('Set by a script');
  });

  it('stores screenshot actions as image URLs', async () => {
    const { body } = await scrape([{ type: 'screenshot' }, { type: 'click', selector: '#reveal' }, { type: 'screenshot', quality: 60 }]);
    const [first, second] = body.data.actions.screenshots;
    expect(first).toMatch(/\/v1\/screenshots\/[0-9a-f]{32}\.png$/);
    expect(second).toMatch(/\.jpeg$/);
    const png = await download(first);
    expect(png.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(dimensions((await download(second)).bytes)).toMatchObject({ width: 1280, height: 800, type: 'jpg' });
  });

  it('fails with SCRAPE_ACTION_ERROR naming the action that failed', async () => {
    const { status, body } = await scrape([{ type: 'wait', milliseconds: 10 }, { type: 'click', selector: '#does-not-exist' }]);
    expect(status).toBe(422);
    expect(body).toMatchObject({ success: false, code: 'SCRAPE_ACTION_ERROR' });
    expect(body.error).toMatch(/^Action 1 \(click\) failed: /);

    const syntax = await scrape([{ type: 'click', selector: '#reveal' }, { type: 'executeJavascript', script: 'throw new Error("boom")' }]);
    expect(syntax.status).toBe(422);
    expect(syntax.body.error).toMatch(/^Action 1 \(executeJavascript\) failed: .*boom/);
  });

  it('validates actions before running any', async () => {
    const tooMany = await scrape(Array.from({ length: 51 }, () => ({ type: 'scrape' })));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details[0].path).toBe('actions');
    const tooLong = await scrape([{ type: 'wait', milliseconds: 40_000 }, { type: 'wait', milliseconds: 21_000 }], { timeout: 120_000 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details).toEqual([{ path: 'actions', message: 'waits may add up to at most 60000 ms' }]);
    const unknown = await scrape([{ type: 'click' }, { type: 'teleport' }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['actions.0.selector', 'actions.1.type']);
    const withHttp = await scrape([{ type: 'scrape' }], { engine: 'http' });
    expect(withHttp.status).toBe(400);
  });
});

describe('actions and screenshots through the Firecrawl v1 SDK', () => {
  it('comes back in the shapes the SDK passes on', async () => {
    const app = new FirecrawlApp({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl') });
    const doc = await app.scrapeUrl(fixture('/shot/actions'), {
      formats: ['markdown', 'screenshot@fullPage'],
      actions: [
        { type: 'click', selector: '#reveal' },
        { type: 'executeJavascript', script: "return document.getElementById('status').textContent" },
      ],
    });
    if (!doc.success) throw new Error(doc.error);
    expect(doc.markdown).toContain(SHOT.clickedText);
    expect(doc.actions?.javascriptReturns).toEqual([{ type: 'string', value: SHOT.clickedText }]);
    expect((await download(doc.screenshot!)).status).toBe(200);
  });
});
