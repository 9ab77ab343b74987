import { describe, expect, it } from 'vitest';
import { visibleText } from '../../src/scrape/process/visible-text';

describe('visibleText', () => {
  it('keeps what a reader sees, in lines and paragraphs, and the title apart', () => {
    const html =
      '<html><head><title>Lamps &amp; lenses</title><style>p { color: red }</style><script>document.write("<p>no</p>")</script></head>' +
      '<body><h1>Oil&nbsp;lamps</h1><p>Wick,\n   glass <b>and</b>  <i>oil</i>.</p><ul><li>One</li><li>Two</li></ul>' +
      '<noscript><p>Enable JavaScript</p></noscript><template><p>Later</p></template><div>Line<br>break</div><!-- note --></body></html>';
    expect(visibleText(html, 1_000)).toEqual({ text: 'Oil lamps\n\nWick, glass and oil.\n\nOne\nTwo\n\nLine\nbreak', title: 'Lamps & lenses', truncated: false, hrefs: [] });
  });

  it("collects the hrefs of links and areas as written, and the first base's, in the same pass", () => {
    const html =
      '<head><base href="https://example.com/docs/"><base href="https://elsewhere.test/"></head>' +
      '<body><a href="a?x=1&amp;y=2">A</a> <a name="anchor">no href</a> <map><area href="/b" alt="B"></map>' +
      '<link href="/style.css"><a href="mailto:x@example.com">mail</a><img src="/i.png" href="/not-a-link"></body>';
    const { hrefs, baseHref, text } = visibleText(html, 1_000);
    expect(hrefs).toEqual(['a?x=1&y=2', '/b', 'mailto:x@example.com']);
    expect(baseHref).toBe('https://example.com/docs/');
    expect(text).toBe('A no href mail');
  });

  it('stops at maxChars and says so', () => {
    const html = `<p>${'word '.repeat(1_000)}</p><p>never read</p>`;
    const { text, truncated } = visibleText(html, 100);
    expect(text).toHaveLength(100);
    expect(text.startsWith('word word')).toBe(true);
    expect(truncated).toBe(true);
  });

  it('reads through nesting no tree could hold and tags that never close', () => {
    const depth = 200_000;
    const html = `<p>Before</p>${'<div><span>'.repeat(depth)}Inside${'</b>'.repeat(depth)}<p>After</p>`;
    expect(visibleText(html, 1_000).text).toBe('Before\n\nInside\n\nAfter');
  });
});
