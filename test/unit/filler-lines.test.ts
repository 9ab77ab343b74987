import { describe, expect, it } from 'vitest';
import { parsePage } from '../../src/scrape/html/parse-document';
import { toText } from '../../src/scrape/html/to-text';
import { dropFillerLines } from '../../src/scrape/main-content/filler-lines';

describe('dropFillerLines', () => {
  it('drops ad labels and loading placeholders, keeps sentences that mention them', () => {
    const document = parsePage(
      '<html><body><p>Advertisement - Continue Reading Below</p><div>Advertisement:</div><span>Sponsored</span><p>Loading...</p><div>Loading...Loading...</div>' +
        '<p>Loading speeds can be slower compared to competitors.</p><p>Advertising revenue fell by a third last year.</p></body></html>',
    );
    dropFillerLines(document.body);
    expect(toText(document.body)).toBe('Loading speeds can be slower compared to competitors.\n\nAdvertising revenue fell by a third last year.');
  });
});
