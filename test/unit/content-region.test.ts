import { describe, expect, it } from 'vitest';
import { parsePage } from '../../src/scrape/html/parse-document';
import { toText } from '../../src/scrape/html/to-text';
import { contentRegion, type RegionOptions } from '../../src/scrape/main-content/content-region';

const PROSE = 'Paragraph text that a reader came for, long enough to be the content of the page. '.repeat(4);

function region(body: string, options: RegionOptions = { pruneLinkDense: true }): string {
  return toText(contentRegion(parsePage(`<html><body>${body}</body></html>`), options));
}

describe('contentRegion', () => {
  it('drops short texts hidden by a utility class, keeps collapsed content and what a larger screen shows', () => {
    const text = region(
      `<main><h1>Title</h1><p>${PROSE}</p><div class="d-none">2016-03-17 13:23:29</div><p class="error hidden">Error rating book.</p>` +
        `<div class="hidden md:block">Shown on desktop</div><div class="collapse-body hidden"><p>${PROSE}</p></div></main>`,
    );
    expect(text).not.toContain('2016-03-17');
    expect(text).not.toContain('Error rating');
    expect(text).toContain('Shown on desktop');
    expect(text.split(PROSE.trim()).length).toBe(3);
  });
});
