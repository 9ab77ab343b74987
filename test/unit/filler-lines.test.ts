import { describe, expect, it } from 'vitest';
import { dropEmbedCodes, dropFillerLines, dropScriptData } from '../../src/scrape/main-content/filler-lines';
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

describe('dropEmbedCodes', () => {
  it("drops a player's embed code printed as a line, keeps a code block that teaches it and a sentence that mentions it", () => {
    const embed = '&lt;iframe src="https://example.org/player/embed/123" width="100%" height="290" frameborder="0"&gt;&lt;/iframe&gt;';
    const text = prunedText(
      `<h3>Teens are sleeping less</h3><span class="embed-url"><code>${embed}</code></span>` +
        `<pre><code>${embed}</code></pre><p>Paste the &lt;iframe&gt; tag where the player should go.</p>`,
      dropEmbedCodes,
    );
    expect(text.startsWith('Teens are sleeping less\n')).toBe(true);
    // One copy left: the code block's.
    expect(text.split('<iframe src=')).toHaveLength(2);
    expect(text).toContain('Paste the <iframe> tag');
  });
});

describe('dropScriptData', () => {
  it("drops a block whose whole text is a script's JSON data, keeps a code block that shows the format and prose with braces", () => {
    const data = '{"buybox":[{"displayPrice":"EUR 15.49","priceAmount":15.49}]}';
    const text = prunedText(
      `<h1>Atomic Habits</h1><div class="price-data">${data}</div><pre><code>${data}</code></pre><p>{Sic} the author writes [in brackets].</p>`,
      dropScriptData,
    );
    expect(text.startsWith('Atomic Habits\n')).toBe(true);
    // One copy left: the code block's.
    expect(text.split('"displayPrice"')).toHaveLength(2);
    expect(text).toContain('{Sic} the author writes [in brackets].');
  });
});
