import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../src/scrape/html/parse-document';
import { squash, squashedLength, textMeasures, visibleLength } from '../../src/scrape/main-content/text-lines';
import { loadWcxb } from '../content/wcxb-corpus';

describe('squashedLength', () => {
  it("counts the text as squash collapses it, with a regular expression's idea of whitespace", () => {
    const texts = [
      '',
      '   ',
      '  Tide  table \n',
      'High\twater\r\n\r\nat\f06:12',
      // Unicode spaces collapse (no-break, em, ideographic, line separator, BOM) ...
      '\u00a0Oil\u2003lamps\u3000and\u2028wicks\ufeff',
      // ... and lookalikes that are not \s stay as text: zero-width space, next line, Mongolian vowel separator.
      'zero\u200bwidth \u0085next\u180e',
    ];
    for (const text of texts) expect(squashedLength(text), JSON.stringify(text)).toBe(squash(text).length);
    expect(squashedLength(null)).toBe(0);
  });
});

describe('textMeasures', () => {
  it('measures every element of real pages as visibleLength does, and counts their links as querySelectorAll does', () => {
    const pages = loadWcxb(path.join(__dirname, '../fixtures/wcxb'));
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const body = parsePage(page.html.toString('utf8')).body;
      const measures = textMeasures(body);
      for (const element of [body, ...body.querySelectorAll('*')]) {
        expect(measures.length(element), `${page.id} <${element.localName}>`).toBe(visibleLength(element));
        expect(measures.links(element), `${page.id} <${element.localName}>`).toBe(element.querySelectorAll('a').length);
      }
    }
  });
});
