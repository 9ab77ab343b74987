import { describe, expect, it } from 'vitest';
import { dropPostingPrompts } from '../../src/scrape/main-content/posting-prompts';
import { prunedText } from './pruned-text';

const ANSWER = 'Wrap the blocking call in asyncio.to_thread so the event loop keeps running while it waits.';

describe('dropPostingPrompts', () => {
  it('drops the box that invites the reader to ask a question of their own, with the boxes beside it', () => {
    const text = prunedText(
      `<div class="answer"><p>${ANSWER}</p></div>` +
        '<div class="bottom-notice"><div><p>Start asking to get answers</p><p>Find the answer to your question by asking.</p><a class="btn" href="/questions/ask">Ask question</a></div>' +
        '<div><p>Explore related questions</p><ul><li><a href="/questions/tagged/python" rel="tag">python</a></li></ul><p>See similar questions with these tags.</p></div></div>',
      dropPostingPrompts,
    );
    expect(text).toBe(ANSWER);
  });

  it('keeps a post that links to the ask page in a sentence, and a post with its byline', () => {
    const inSentence = '<p>If it still fails, <a href="/questions/ask">ask a new question</a> with the traceback.</p>';
    const shortPost = '<div class="post"><time>Mar 5, 2024</time><p>Start a topic of your own:</p><a href="/new-topic">New topic</a></div>';
    const text = prunedText(`<div class="answer"><p>${ANSWER}</p>${inSentence}</div>${shortPost}`, dropPostingPrompts);
    expect(text).toContain('ask a new question');
    expect(text).toContain('Mar 5, 2024');
    expect(text).toContain('New topic');
  });
});
