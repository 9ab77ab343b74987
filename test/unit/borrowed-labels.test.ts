import { describe, expect, it } from 'vitest';
import { dropBorrowedLabels } from '../../src/scrape/main-content/borrowed-labels';
import { prunedText } from './pruned-text';

const card = (id: number, title: string) =>
  `<div class="story"><a href="/posts/${id}" aria-labelledby="title-${id}" class="overlay">${title}</a>` +
  `<h2><a id="title-${id}" href="/posts/${id}">${title}</a></h2><p>Snippet of post ${id}.</p></div>`;

describe('dropBorrowedLabels', () => {
  it("says each card's title once: the overlay link named by the title goes, the title stays", () => {
    const text = prunedText(card(1, 'The women who helped me grow') + card(2, 'Why friction matters'), dropBorrowedLabels);
    expect(text.match(/The women who helped me grow/g)).toHaveLength(1);
    expect(text.match(/Why friction matters/g)).toHaveLength(1);
    expect(text).toContain('Snippet of post 2.');
  });

  it('keeps a link whose own words differ from its name, or whose name is inside it or missing', () => {
    const text = prunedText(
      '<span id="caption">Download the report</span><a href="/report.pdf" aria-labelledby="caption">PDF, 2 MB</a>' +
        '<a href="/a" aria-labelledby="inner"><span id="inner">Inner name</span></a><a href="/b" aria-labelledby="nowhere">Lonely link</a>',
      dropBorrowedLabels,
    );
    expect(text).toContain('PDF, 2 MB');
    expect(text).toContain('Inner name');
    expect(text).toContain('Lonely link');
  });

  it('keeps a title whose link is named by the heading around it, and one of two links that name each other', () => {
    const own = prunedText('<h2 id="t1"><a href="/1" aria-labelledby="t1">Story title</a></h2><p>Snippet.</p>', dropBorrowedLabels);
    expect(own).toContain('Story title');
    const pair = prunedText('<a id="a" href="/x" aria-labelledby="b">Same words</a> <a id="b" href="/x" aria-labelledby="a">Same words</a>', dropBorrowedLabels);
    expect(pair.match(/Same words/g)).toHaveLength(1);
  });
});
