import { describe, expect, it } from 'vitest';
import { issuesToDetails } from '../../src/api/validation';
import { planV2Scrape, V2_DEFAULT_MAX_AGE_MS, v2ScrapeOptionsSchema, v2ScrapeRequestSchema } from '../../src/firecrawl/v2/scrape-options';

const plan = (options: Record<string, unknown>) => planV2Scrape(v2ScrapeOptionsSchema.parse(options));
const problems = (body: Record<string, unknown>) => {
  const parsed = v2ScrapeRequestSchema.safeParse({ url: 'https://example.com/', ...body });
  // As the API's 400 words them.
  return parsed.success ? [] : issuesToDetails(parsed.error.issues).map((d) => `${d.path}: ${d.message}`);
};

describe('planV2Scrape: v2 options as the internal scrape options', () => {
  it('applies v2 defaults: markdown, main content, ad blocking, two days of maxAge', () => {
    expect(plan({})).toEqual({
      options: expect.objectContaining({ formats: ['markdown'], onlyMainContent: true, blockAds: true, maxAge: V2_DEFAULT_MAX_AGE_MS, engine: 'auto' }),
      output: { formats: ['markdown'], storeInCache: true },
    });
  });

  it('asks the scrape for what derived formats read: raw HTML for images and attributes, markdown for summary', () => {
    const { options, output } = plan({ formats: ['images', { type: 'attributes', selectors: [{ selector: 'a', attribute: 'href' }] }, 'summary'] });
    expect(options.formats.sort()).toEqual(['markdown', 'rawHtml']);
    expect(output).toMatchObject({ formats: ['images', 'attributes', 'summary'], attributes: [{ selector: 'a', attribute: 'href' }] });
  });

  it('turns format objects into the internal json options and screenshot settings', () => {
    const json = plan({ formats: [{ type: 'json', schema: { type: 'object', properties: { a: { type: 'string' } } }, prompt: 'the a' }] });
    expect(json.options).toMatchObject({ formats: ['json'], jsonOptions: { schema: { type: 'object' }, prompt: 'the a' } });
    const shot = plan({ formats: [{ type: 'screenshot', fullPage: true, quality: 70, viewport: { width: 600, height: 400 } }] });
    expect(shot.options).toMatchObject({ formats: ['screenshot@fullPage'], screenshot: { quality: 70, viewport: { width: 600, height: 400 } } });
    expect(shot.output.screenshot).toEqual({ fullPage: true, quality: 70, viewport: { width: 600, height: 400 } });
    expect(plan({ formats: ['screenshot'] }).options).not.toHaveProperty('screenshot');
  });

  it('makes change tracking fetch fresh, and its json mode the page’s json extraction', () => {
    const schema = { type: 'object', properties: { price: { type: 'number' } } };
    const { options, output } = plan({ formats: ['markdown', { type: 'changeTracking', modes: ['git-diff', 'json'], schema, tag: 'daily' }] });
    expect(options).toMatchObject({ maxAge: 0, formats: ['markdown', 'json'], jsonOptions: { schema } });
    expect(output).toMatchObject({ formats: ['markdown', 'changeTracking'], changeTracking: { modes: ['git-diff', 'json'], schema, tag: 'daily' } });
  });
});

describe('v2 scrape request validation', () => {
  it('accepts what the SDK sends, and refuses formats and options it cannot honour', () => {
    expect(problems({ formats: ['markdown', 'links', { type: 'screenshot' }], origin: 'js-sdk@4.42.0', proxy: 'auto', parsers: ['pdf'] })).toEqual([]);
    expect(problems({ formats: ['json'] })).not.toEqual([]);
    expect(problems({ formats: [{ type: 'json' }] })).toEqual(['formats.0: the json format needs a schema, a prompt, or both']);
    expect(problems({ formats: ['changeTracking'] })).toEqual(['formats: the changeTracking format compares markdown; add "markdown" to formats']);
    expect(problems({ formats: ['markdown', 'markdown'] })).toEqual(['formats: the markdown format is given more than once']);
    expect(problems({ formats: [{ type: 'attributes', selectors: [{ selector: 'a[', attribute: 'href' }] }] })).toEqual(['formats.0.selectors.0.selector: not a valid CSS selector']);
    expect(problems({ parsers: [] })).toEqual(['parsers: PDFs are always parsed here; omit parsers or send ["pdf"]']);
    expect(problems({ parsers: [{ type: 'pdf', mode: 'ocr' }] })).not.toEqual([]);
    expect(problems({ proxy: 'stealth' })).not.toEqual([]);
    expect(problems({ engine: 'http', formats: ['screenshot'] })).toEqual(['engine: waitFor, mobile, actions, screenshots and branding need the browser; use engine "auto" or "browser"']);
    expect(problems({ formats: [{ type: 'question', question: 'Why?' }, { type: 'highlights', query: 'why' }, 'product', 'menu', 'branding'] })).toEqual([]);
    expect(problems({ formats: [{ type: 'answer' }] })[0]).toMatch(/^formats\.0\.type: unknown format type "answer"; the object formats are "json", "screenshot", /);
    expect(problems({ formats: ['video'] })[0]).toMatch(/^formats\.0: the "video" format is not served here/);
    expect(
      problems({ formats: ['markdown', { type: 'json', prompt: 'x' }, { type: 'changeTracking', modes: ['json'], prompt: 'y' }] }),
    ).toEqual(["formats.2: changeTracking's json mode extracts with its own schema; it cannot be combined with the json format here"]);
  });
});
