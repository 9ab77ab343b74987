import { describe, expect, it } from 'vitest';
import { dropFillerLines } from '../../src/scrape/main-content/filler-lines';
import { prunedText } from './pruned-text';

describe('dropFillerLines', () => {
  it('drops ad labels and loading placeholders, keeps sentences that mention them', () => {
    const text = prunedText(
      '<p>Advertisement - Continue Reading Below</p><div>Advertisement:</div><span>Sponsored</span><p>Loading...</p><div>Loading...Loading...</div>' +
        '<p>Loading speeds can be slower compared to competitors.</p><p>Advertising revenue fell by a third last year.</p>',
      dropFillerLines,
    );
    expect(text).toBe('Loading speeds can be slower compared to competitors.\n\nAdvertising revenue fell by a third last year.');
  });
});
