import { describe, expect, it } from 'vitest';
import { dropAnswerComments } from '../../src/scrape/main-content/answer-comments';
import { prunedText } from './pruned-text';

const comment = (text: string) => `<li itemprop="comment" itemscope itemtype="https://schema.org/Comment"><span itemprop="text">${text}</span> – <a href="/users/2/leo">Leo</a> Jul 19, 2013</li>`;

describe('dropAnswerComments', () => {
  it("drops the comments under a Q&A page's question and answers, keeps the question and the answers", () => {
    const text = prunedText(
      '<div itemscope itemtype="https://schema.org/Question"><h1 itemprop="name">Set focus to the file list</h1><div itemprop="text"><p>How do I move focus to the files?</p></div>' +
        `<ul>${comment('Now tell me how you really feel...')}</ul></div>` +
        '<div itemprop="suggestedAnswer" itemscope itemtype="https://schema.org/Answer"><div itemprop="text"><p>Press F6 twice.</p></div>' +
        `<ul>${comment('Perfect, this worked.')}</ul></div>`,
      dropAnswerComments,
    );
    expect(text).toContain('How do I move focus to the files?');
    expect(text).toContain('Press F6 twice.');
    expect(text).not.toContain('really feel');
    expect(text).not.toContain('this worked');
  });

  it("keeps a forum's replies that its markup calls comments of the topic", () => {
    const text = prunedText(
      '<div itemscope itemtype="http://schema.org/DiscussionForumPosting"><p>Which Qt6 version for Ubuntu 24.04?</p>' +
        '<div itemprop="comment" itemscope itemtype="http://schema.org/Comment"><p>Ubuntu 24.04 ships Qt 6.4.2.</p></div></div>',
      dropAnswerComments,
    );
    expect(text).toContain('Ubuntu 24.04 ships Qt 6.4.2.');
  });
});
