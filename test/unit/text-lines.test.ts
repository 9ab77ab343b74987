import { describe, expect, it } from 'vitest';
import { squash, squashedLength } from '../../src/scrape/main-content/text-lines';

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
