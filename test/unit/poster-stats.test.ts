import { describe, expect, it } from 'vitest';
import { dropPosterStats } from '../../src/scrape/main-content/poster-stats';
import { prunedText } from './pruned-text';

const thread = (body: string) => prunedText(body, dropPosterStats);

describe('dropPosterStats', () => {
  it("drops a poster's profile fields, title and counters, keeps the name, the date and the post", () => {
    const post = (name: string) =>
      `<div class="post"><div class="user"><a href="/members/${name}">${name}</a><div>Registered User</div><div>Join Date: Mar 2016</div><div>Posts: <b>701</b></div>` +
      `<dl><dt></dt><dd>8,583</dd><dt>Location</dt><dd>Nottinghamshire</dd></dl><span>#3</span></div><time>Oct 8, 2024</time><p>Does disabling hardware decoding do anything? I tried 23.976 and 50 fps.</p><span>7 Likes</span></div>`;
    const text = thread(post('microfast') + post('GeoffreyA'));
    expect(text).toContain('microfast');
    expect(text).toContain('GeoffreyA');
    expect(text).toContain('Oct 8, 2024');
    expect(text).toContain('Does disabling hardware decoding');
    for (const stat of ['Registered User', 'Join Date', 'Posts', '8,583', 'Location', 'Nottinghamshire', '#3', '7 Likes']) expect(text).not.toContain(stat);
  });

  it('keeps numbers in code and in a data table', () => {
    const text = thread('<pre>42</pre><table><tr><td>Posts</td><td>1,430</td></tr></table>');
    expect(text).toContain('42');
    expect(text).toContain('1,430');
  });
});
