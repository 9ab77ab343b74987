import { describe, expect, it } from 'vitest';
import { dropThreadFurniture } from '../../src/scrape/main-content/thread-furniture';
import { prunedText } from './pruned-text';

describe('dropThreadFurniture', () => {
  it("drops the thread's header fields, edit notices, gaps, readers and share label; keeps the posts and their dates", () => {
    const text = prunedText(
      '<div><span>Thread starter</span> <a href="/m/1">Spursidol</a></div><div>Start date Sep 21, 2024</div><div>Tags</div>' +
        '<article><time>Oct 29, 2025</time><p>Hi, I have a few orders the customer did not pay.</p><span>Edited October 30, 2025 by El Patron</span></article>' +
        '<div>2 weeks later...</div><article><time>Nov 13, 2025</time><p>Probably their bank refused the payment.</p></article>' +
        '<div>JonB has marked this topic as solved on</div><h3>Recently Browsing 0 members</h3><p>No registered users viewing this page.</p><div>Share:</div>',
      dropThreadFurniture,
    );
    for (const kept of ['Start date Sep 21, 2024', 'Oct 29, 2025', 'Hi, I have a few orders', 'Nov 13, 2025', 'Probably their bank']) expect(text).toContain(kept);
    for (const furniture of ['Thread starter', 'Tags', 'Edited', 'later', 'solved', 'Browsing', 'viewing', 'Share']) expect(text).not.toContain(furniture);
  });

  it("drops the board's posting rules and time zone", () => {
    const rules = ['Posting Rules', 'You may not post new threads', 'You may not edit your posts', 'BB code is On', '[IMG] code is On', 'HTML code is Off', 'Forum Jump', 'All times are GMT +1. The time now is 14:01.'];
    const text = prunedText(`<p>Does disabling hardware decoding do anything?</p><table>${rules.map((rule) => `<tr><td>${rule}</td></tr>`).join('')}</table>`, dropThreadFurniture);
    expect(text).toBe('Does disabling hardware decoding do anything?');
  });

  it("drops who liked a post, the labels over code blocks and quotes, and unrendered BBCode; keeps the code", () => {
    const text = prunedText(
      '<article><p>Turn the LEDs off with these lines in config.txt:</p><div class="codebox"><p>Code: <a href="#">Select all</a></p><pre><code>dtparam=act_led_trigger=none\n[/quote]</code></pre></div>' +
        '<div>MargoFarrel likes this.</div><div>Joe and 3 others like this.</div><div>1 person likes this.</div></article>' +
        '<article><div>[quote quote=312679]</div><blockquote><p>What finish did you use on the oak?</p><div>Click to expand...</div></blockquote><div>[/quote]</div><p>Danish oil, two coats.</p></article>',
      dropThreadFurniture,
    );
    for (const kept of ['Turn the LEDs off', 'dtparam=act_led_trigger=none', '[/quote]', 'What finish did you use', 'Danish oil']) expect(text).toContain(kept);
    for (const furniture of ['Code:', 'Select all', 'likes this', 'like this', '[quote quote', 'Click to expand']) expect(text).not.toContain(furniture);
    expect(text.match(/\[\/quote\]/g)).toHaveLength(1);
  });

  it('keeps sentences that use the same words', () => {
    const text = prunedText('<p>Share your settings file and I will take a look.</p><p>I edited the config by hand and it worked.</p><p>You can post the log here.</p>', dropThreadFurniture);
    expect(text).toContain('Share your settings file');
    expect(text).toContain('I edited the config by hand');
    expect(text).toContain('You can post the log here.');
  });
});
