import { describe, expect, it } from 'vitest';
import { dropQuotedPosts } from '../../src/scrape/main-content/quoted-posts';
import { prunedText } from './pruned-text';

const post = (author: string, body: string) => `<article><div>${author}</div><div class="content">${body}</div></article>`;
const FIRST = 'The flickering green LED is annoying in a <b>bedroom</b>, and I do not want black tape.';

describe('dropQuotedPosts', () => {
  it('drops a reply’s quote of a post the thread shows, with its citation; keeps the reply', () => {
    const text = prunedText(
      post('jahboater', `<p>${FIRST}</p>`) +
        post('badz', `<blockquote><cite><a href="/u/1">jahboater</a> wrote:</cite>${FIRST}</blockquote><p>Add dtparam=act_led_trigger=none to config.txt.</p>`),
      dropQuotedPosts,
    );
    expect(text.match(/flickering green LED/g)).toHaveLength(1);
    expect(text).not.toContain('wrote:');
    expect(text).toContain('Add dtparam=act_led_trigger=none to config.txt.');
  });

  it('keeps a quote of something the page does not show, and a post whose own text is a quote', () => {
    const text = prunedText(
      post('badz', '<blockquote><p>The activity LED can be disabled with a dtparam on all models.</p></blockquote><p>So says the firmware README.</p>') +
        post('jahboater', '<blockquote class="messageText">Forums still give a sense of community that social media lacks.</blockquote>'),
      dropQuotedPosts,
    );
    expect(text).toContain('The activity LED can be disabled with a dtparam on all models.');
    expect(text).toContain('Forums still give a sense of community that social media lacks.');
  });
});
