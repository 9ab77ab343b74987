import { describe, expect, it } from 'vitest';
import { dropEntryDates } from '../../src/scrape/main-content/entry-dates';
import { prunedText } from './pruned-text';

describe('dropEntryDates', () => {
  it("drops a listing entry's date, age and reading-time lines, keeps dates that are part of a line", () => {
    const text = prunedText(
      '<ul><li><time>Feb 19, 2026</time><h3><a href="/a">Our multi-agent architecture</a></h3><p>How we fixed ad ranking.</p><span>4 min read</span></li>' +
        '<li><div>7 hours ago</div><h3><a href="/b">How we release the app</a></h3><p>By Jane Doe • Oct. 27, 2025</p><div>Updated <relative-time>Mar 5, 2026</relative-time></div><p>12/09/2025 | The Daily</p></li></ul>',
      dropEntryDates,
    );
    expect(text).not.toContain('Feb 19');
    expect(text).not.toContain('min read');
    expect(text).not.toContain('hours ago');
    expect(text).toContain('Our multi-agent architecture');
    expect(text).toContain('By Jane Doe • Oct. 27, 2025');
    expect(text).toContain('Updated Mar 5, 2026');
    expect(text).toContain('12/09/2025 | The Daily');
  });
});
