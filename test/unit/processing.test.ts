import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/scrape/decode-body';
import { parsePage } from '../../src/scrape/html/parse-document';
import { toMarkdown } from '../../src/scrape/html/to-markdown';
import { toText } from '../../src/scrape/html/to-text';
import { processHtml } from '../../src/scrape/process/process-html';
import { contentKind } from '../../src/scrape/process/content-kind';
import { urlKey } from '../../src/url/normalize-url';

const parseBody = (html: string) => parsePage(`<!doctype html><html><head></head><body>${html}</body></html>`);
const htmlToText = (html: string) => toText(parseBody(html).body);
const htmlToMarkdown = (html: string) => toMarkdown(parseBody(html).body);

describe('toText', () => {
  it('puts blocks on their own lines and collapses whitespace inside them', () => {
    expect(htmlToText('<h1>Title</h1><p>one\n   two <b>three</b></p><div>four</div>')).toBe('Title\n\none two three\n\nfour');
  });

  it('separates table cells with tabs and rows with newlines', () => {
    expect(htmlToText('<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>')).toBe('A\tB\n1\t2');
  });

  it('ends list items and <br> with a newline', () => {
    expect(htmlToText('<ul><li>a</li><li>b</li></ul><p>x<br>y</p>')).toBe('a\nb\n\nx\ny');
  });

  it('keeps <pre> verbatim, indentation and blank lines included', () => {
    expect(htmlToText('<p>Code:</p><pre>if (x) {\n    y();\n\n}</pre>')).toBe('Code:\n\nif (x) {\n    y();\n\n}');
  });
});

describe('toMarkdown', () => {
  it('fences a bare <pre> rather than indenting it as prose', () => {
    expect(htmlToMarkdown('<p>Run:</p><pre>npm start\nnpm test</pre>')).toBe('Run:\n\n```\nnpm start\nnpm test\n```');
  });

  it('uses a longer fence when the code contains one', () => {
    expect(htmlToMarkdown('<pre>```\ninner\n```</pre>')).toBe('````\n```\ninner\n```\n````');
  });

  it('fences <pre><code> too, and writes GFM tables', () => {
    expect(htmlToMarkdown('<pre><code>x = 1</code></pre>')).toBe('```\nx = 1\n```');
    expect(htmlToMarkdown('<table><thead><tr><th>Name</th><th>Height</th></tr></thead><tbody><tr><td>Lindau</td><td>33</td></tr></tbody></table>')).toBe(
      '| Name | Height |\n| --- | --- |\n| Lindau | 33  |', // cells are padded to the delimiter's three characters
    );
  });

  it('gives a table without a heading row an empty header, and keeps alignment, colspans and pipes', () => {
    expect(htmlToMarkdown('<table><tr><td>a</td><td>b|c</td></tr><tr><td colspan="2">wide</td></tr></table>')).toBe(
      '|     |     |\n| --- | --- |\n| a   | b\\|c |\n| wide |     |',
    );
    expect(htmlToMarkdown('<table><tr><th align="right">n</th><th style="text-align:center">x</th></tr><tr><td>1</td><td>2</td></tr></table>')).toBe(
      '| n   | x   |\n| ---: | :---: |\n| 1   | 2   |',
    );
  });

  it('writes line breaks in a cell as <br>, a caption above its table, and flattens a table inside a table', () => {
    expect(htmlToMarkdown('<table><caption>Heights</caption><tr><th>A</th></tr><tr><td>one<br>two</td></tr></table>')).toBe('Heights\n\n| A   |\n| --- |\n| one<br>two |');
    const nested = htmlToMarkdown('<table><tr><td><table><tr><th>in</th></tr><tr><td>x</td></tr></table></td></tr></table>');
    expect(nested).not.toContain('| --- |\n| --- |');
    expect(nested).toContain('in');
  });

  it('converts a long table in time linear in its size', () => {
    const rows = Array.from({ length: 2_000 }, (_, i) => `<tr><td>${i}</td><td>row ${i}</td><td>x</td><td>y</td></tr>`).join('');
    const markdown = htmlToMarkdown(`<table><thead><tr><th>n</th><th>name</th><th>a</th><th>b</th></tr></thead><tbody>${rows}</tbody></table>`);
    expect(markdown.split('\n')).toHaveLength(2_002);
    expect(markdown.split('\n')[2_001]).toBe('| 1999 | row 1999 | x   | y   |');
  });

  it('escapes text that would read as markdown syntax, and only that', () => {
    expect(htmlToMarkdown('<p>a*b_c [d] `e` \\ f</p><p>1. not a list</p><p>- not a bullet</p><p># not a heading</p><p>plain text, 2 + 2 = 4.</p>')).toBe(
      'a\\*b\\_c \\[d\\] \\`e\\` \\\\ f\n\n1\\. not a list\n\n\\- not a bullet\n\n\\# not a heading\n\nplain text, 2 + 2 = 4.',
    );
  });

  it('writes checkboxes in list items as GFM task items, checked as the page says', () => {
    const items = htmlToMarkdown(
      '<ul><li><input type="checkbox" checked> done</li><li><input type="CHECKBOX"> to do</li><li><label><input type="checkbox" checked="checked"> labelled</label></li><li><span role="checkbox" aria-checked="true">yes</span> aria</li></ul>',
    ).split('\n');
    expect(items.map((line) => line.replace(/\s+/g, ' '))).toEqual(['- [x] done', '- [ ] to do', '- [x] labelled', '- [x] aria']);
    expect(htmlToMarkdown('<form><input type="checkbox" checked> Remember me</form>')).toBe('Remember me');
  });

  it('collapses the whitespace that cleaning leaves between an image and the text after it', () => {
    const document = parseBody('<p><img src="/x.gif">\n   <script>a</script>\n   <script>b</script>\n  <span>The title</span></p>');
    for (const script of [...document.querySelectorAll('script')]) script.remove();
    expect(toMarkdown(document.body)).toBe('![](/x.gif) The title');
  });

  it('drops images without a src', () => {
    expect(htmlToMarkdown('<p>a <img alt="nothing"> b</p>')).toMatch(/^a +b$/);
  });
});

describe('processHtml', () => {
  it('removes every comment, however deeply nested, and keeps the text around it', () => {
    const page = `<html><body><!-- top --><main><div><p>Kept <!-- inline --> text</p><ul><li>One<!-- deep --></li></ul></div></main><!-- tail --></body></html>`;
    const { html, markdown } = processHtml(page, 'https://example.com/', { formats: ['markdown', 'html'], onlyMainContent: false, removeBase64Images: true });
    expect(html).not.toContain('<!--');
    expect(markdown).toMatch(/^Kept text\n\n- +One$/);
  });

  it('serialises the cleaned HTML only when the html format is asked for', () => {
    const page = '<html><body><p>Kept</p></body></html>';
    expect(processHtml(page, 'https://example.com/', { formats: ['markdown', 'html'], onlyMainContent: false, removeBase64Images: true }).html).toBe('<p>Kept</p>');
    expect(processHtml(page, 'https://example.com/', { formats: ['markdown'], onlyMainContent: false, removeBase64Images: true })).not.toHaveProperty('html');
  });

  it('reads the title as document.title does, its whitespace collapsed', () => {
    const page = '<html><head><title>\n  ORM Quick Start\n —\n\t SQLAlchemy  Documentation </title></head><body><p>Text</p></body></html>';
    expect(processHtml(page, 'https://example.com/', { formats: ['markdown'], onlyMainContent: false, removeBase64Images: true }).metadata.title).toBe('ORM Quick Start — SQLAlchemy Documentation');
  });

  it('shows lazy-loaded images at their real address, not their placeholder', () => {
    const blank = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
    const page = `<html><body>
      <p><img src="${blank}" data-src="/img/harbour.jpg" alt="Harbour"></p>
      <p><img src="data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%3E%3C/svg%3E" data-lazy-src="/img/lamp.png" data-lazy-srcset="/img/lamp-640.png 640w, /img/lamp-1280.png 1280w" alt="Lamp"></p>
      <p><img data-original="/img/tower.webp" alt="Tower"></p>
      <p><img class="lazyload" src="/img/tiny.jpg" data-src="/img/pier.jpg" alt="Pier"></p>
      <p><img src="/img/beacon.jpg" data-src="/img/other.jpg" alt="Beacon"></p>
    </body></html>`;
    for (const removeBase64Images of [true, false]) {
      const { markdown } = processHtml(page, 'https://example.com/log/', { formats: ['markdown'], onlyMainContent: false, removeBase64Images });
      expect(markdown.split('\n\n')).toEqual([
        '![Harbour](https://example.com/img/harbour.jpg)',
        '![Lamp](https://example.com/img/lamp-1280.png)',
        '![Tower](https://example.com/img/tower.webp)',
        '![Pier](https://example.com/img/pier.jpg)',
        '![Beacon](https://example.com/img/beacon.jpg)',
      ]);
    }
  });

  it('finds the main content of a shop page and recognises it as a product', () => {
    // A shop page shaped like Magento's: <main id="maincontent">. Readability on a patched DOM used to crash here.
    const page = readFileSync('test/fixtures/extract-corpus/product-03-microdata.html', 'utf8');
    const { markdown, mainContent, metadata } = processHtml(page, 'https://shop.example.org/p/gsr-12v', { formats: ['markdown'], onlyMainContent: true, removeBase64Images: true });
    expect(mainContent?.method).toBe('region');
    expect(metadata.pageType).toBe('product');
    expect(markdown).toContain('Bosch Cordless Drill GSR 12V-15');
    expect(markdown).not.toContain('Cookie settings');
  });

  it('keeps a product\'s own sections and drops the ones its headings say are about other products or other people', () => {
    const review = (who: string) => `<div class="pdp-review-card"><b>${who}</b><p>${'Sturdy and simple to assemble, would buy again. '.repeat(3)}</p></div>`;
    const page = `<html><head><script type="application/ld+json">{"@type":"Product","name":"Oak Shelf"}</script></head><body><main>
      <h1>Oak Shelf</h1><p>$79.99</p><button>Add to cart</button>
      <section><h2>Product details</h2><p>${'Solid oak with rounded edges and a hand-oiled finish. '.repeat(4)}</p><dl><dt>Width</dt><dd>77 cm</dd></dl></section>
      <div class="pipf-highlight-reviews"><h2>Customer reviews</h2>${['Ann', 'Bo', 'Cy'].map(review).join('')}</div>
      <section><h3>You may also like</h3><ul><li>Pine Shelf $59</li><li>Birch Shelf $69</li></ul></section>
    </main></body></html>`;
    const { markdown, metadata } = processHtml(page, 'https://shop.example.org/p/oak-shelf', { formats: ['markdown'], onlyMainContent: true, removeBase64Images: true });
    expect(metadata.pageType).toBe('product');
    expect(markdown).toContain('hand-oiled finish');
    expect(markdown).toContain('77 cm');
    expect(markdown).not.toContain('Sturdy and simple');
    expect(markdown).not.toContain('Customer reviews');
    expect(markdown).not.toContain('Birch Shelf');
  });

  it('reads a page describing many products as a grid of them, and keeps every item without per-card field labels', () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ '@type': 'Product', name: `Shoe ${i}` }));
    const card = (i: number) => `<li class="card"><a href="/p/${i}">Runner model ${i} in grey, light and quick</a><dl><dt>Brand Name</dt><dd>Make ${i}</dd></dl><span>$${100 + i}.00</span></li>`;
    const page = `<html><head><script type="application/ld+json">${JSON.stringify({ '@graph': items })}</script><meta property="og:type" content="product"></head>
      <body><main><h1>Running shoes</h1><ul class="grid">${Array.from({ length: 10 }, (_, i) => card(i)).join('')}</ul></main></body></html>`;
    const { markdown, metadata } = processHtml(page, 'https://shop.example.org/running-shoes', { formats: ['markdown'], onlyMainContent: true, removeBase64Images: true });
    expect(metadata.pageType).toBe('collection');
    for (let i = 0; i < 10; i++) expect(markdown).toContain(`Runner model ${i} in grey`);
    expect(markdown).not.toContain('Brand Name');
  });

  it('reads a page with several things to put in the cart as a grid of them, and keeps each one', () => {
    const model = (kind: string, name: string, price: string) =>
      `<section class="${kind}"><h2>${name}</h2><p>${name} headphones with world-class noise cancelling, spatial audio and up to 24 hours of battery.</p><p>${price}</p><button>Add to cart</button></section>`;
    const page = `<html><body><main><h1>Headphones</h1>${model('hero', 'QuietComfort Ultra', '$429.00')}${model('feature', 'QuietComfort', '$349.00')}${model('spotlight', 'Sport Open', '$199.00')}</main></body></html>`;
    const { markdown, metadata } = processHtml(page, 'https://shop.example.org/headphones', { formats: ['markdown'], onlyMainContent: true, removeBase64Images: true });
    expect(metadata.pageType).toBe('collection');
    for (const name of ['QuietComfort Ultra headphones', 'QuietComfort headphones', 'Sport Open headphones']) expect(markdown).toContain(name);
  });

  it("reads a page describing many articles as a blog's index, and keeps every post's title and teaser", () => {
    const titles = ['Can commit messages include volatile information', 'What we learned from a year of on-call', 'How our search ranks answers', 'The cost of a flaky test'];
    const posts = titles.map((headline) => ({ '@type': 'Article', headline }));
    const card = (title: string) =>
      `<article class="post-card"><h2><a href="/${title.length}">${title}</a></h2><p><a href="/${title.length}">${title}: the story behind it, with the numbers and what we would do differently next time.</a></p><a href="/author">Phoebe Sajor</a></article>`;
    const page = `<html><head><script type="application/ld+json">${JSON.stringify(posts)}</script></head>
      <body><main><h1>The Blog</h1>${titles.map(card).join('')}</main></body></html>`;
    const { markdown, metadata } = processHtml(page, 'https://blog.example.org/', { formats: ['markdown'], onlyMainContent: true, removeBase64Images: true });
    expect(metadata.pageType).toBe('listing');
    for (const title of titles) expect(markdown).toContain(`${title}: the story behind it`);
  });

  it('keeps every list of headlines on a front page, and drops a mega menu\'s columns of links', () => {
    const story = (title: string) => `<li class="story"><a href="/${title.length}">${title}, and what it means for the rest of the year</a> <a href="/by">A. Writer</a></li>`;
    const column = (topic: string) => `<div class="col"><b>${topic}</b>${['best rates', 'calculators', 'reviews', 'guides', 'news'].map((l) => `<a href="/${l}">${topic} ${l}</a>`).join(' ')}</div>`;
    const page = `<html><body><main>
      <div class="menu">${['Savings', 'Loans', 'Cards'].map(column).join('')}</div>
      <h1>Technology</h1><p>${'The latest reporting on the companies and people shaping technology. '.repeat(3)}</p>
      <div><ul>${['Startup raises a round', 'Chip maker expands', 'Robots learn to fold laundry'].map(story).join('')}</ul></div>
      <div><ul>${['Regulators open inquiry', 'Browser ships new engine', 'Satellite network grows'].map(story).join('')}</ul></div>
    </main></body></html>`;
    const { markdown, metadata } = processHtml(page, 'https://news.example.org/technology', { formats: ['markdown'], onlyMainContent: true, removeBase64Images: true });
    expect(metadata.pageType).not.toBe('article');
    for (const title of ['Startup raises a round', 'Robots learn to fold laundry', 'Regulators open inquiry', 'Satellite network grows']) expect(markdown).toContain(title);
    expect(markdown).not.toContain('Loans calculators');
  });

  it('judges an app shell by the whole page, not by the part includeTags keeps', () => {
    const article = `<p>${'Static text that a reader sees without running any script. '.repeat(8)}</p>`;
    const page = `<html><body><div id="badge">New</div><main>${article}</main><script src="/app.js"></script></body></html>`;
    const options = { formats: ['markdown'] as const, onlyMainContent: false, removeBase64Images: true };
    expect(processHtml(page, 'https://example.com/', { ...options, includeTags: ['#badge'] })).toMatchObject({ appShell: false, markdown: 'New' });
    const shell = '<html><body><div id="root"></div><script src="/app.js"></script></body></html>';
    expect(processHtml(shell, 'https://example.com/', options).appShell).toBe(true);
  });

  describe('a page with no text of its own outside its header, footer and menus', () => {
    const links = (n: number) => Array.from({ length: n }, (_, i) => `<li><a href="/help/${i}">Help topic ${i}</a></li>`).join('');
    const chrome = `<header><a href="/">Shop</a><ul>${links(6)}</ul></header><nav><ul>${links(20)}</ul></nav><footer><ul>${links(20)}</ul><p>© 2026 Shop Inc. All rights reserved.</p></footer>`;
    const options = { formats: ['markdown'] as const, onlyMainContent: true, removeBase64Images: true };

    it('has no main content (not its menus), says why, and is an app shell when it runs scripts', () => {
      const page = `<html><body>${chrome}<div id="root"></div></body></html>`;
      const result = processHtml(page, 'https://shop.example/item/1', options);
      expect(result).toMatchObject({ markdown: '', appShell: false, mainContent: { method: 'none', ratio: 0 } });
      expect(result.warning).toContain('engine "browser"');
      expect(processHtml(page.replace('</body>', '<script src="/app.js"></script></body>'), 'https://shop.example/item/1', options).appShell).toBe(true);
      expect(processHtml(page, 'https://shop.example/item/1', { ...options, onlyMainContent: false }).markdown).toContain('Help topic 19');
    });

    it('keeps the little it says outside them, such as a not-found message', () => {
      const page = `<html><body>${chrome}<main><h1>Page not found</h1><p>Try the search box.</p></main></body></html>`;
      const result = processHtml(page, 'https://shop.example/missing', options);
      expect(result.markdown).toBe('# Page not found\n\nTry the search box.');
      expect(result.mainContent?.method).toBe('region');
    });

    it('is no app shell for a script that only carries data (JSON-LD)', () => {
      const page = `<html><body>${chrome}<div id="root"></div><script type="application/ld+json">{"@type":"Product","name":"Mug"}</script></body></html>`;
      expect(processHtml(page, 'https://shop.example/item/1', options).appShell).toBe(false);
      expect(processHtml(page.replace('application/ld+json', 'module'), 'https://shop.example/item/1', options).appShell).toBe(true);
    });

    it('is not a short page without chrome, which keeps its few words and gets no warning', () => {
      const result = processHtml('<html><body><p>Sea lavender flowers in late summer.</p><a href="/">Home</a></body></html>', 'https://marsh.example/plants', options);
      expect(result).toMatchObject({ markdown: 'Sea lavender flowers in late summer.\n\n[Home](https://marsh.example/)', appShell: false });
      expect(result.warning).toBeUndefined();
    });

    it('counts the header and footer of an article as its content, and leaves what includeTags picks alone', () => {
      const story = `<article><header><h1>Harbour lights</h1><p>${'How the harbour lights were restored by volunteers. '.repeat(5)}</p></header><footer>Filed under lights.</footer></article>`;
      const article = processHtml(`<html><body>${chrome}${story}</body></html>`, 'https://news.example/lights', options);
      expect(article.warning).toBeUndefined();
      expect(article.markdown).toContain('restored by volunteers');
      const picked = processHtml(`<html><body>${chrome}</body></html>`, 'https://shop.example/', { ...options, includeTags: ['footer'] });
      expect(picked.warning).toBeUndefined();
      expect(picked.markdown).toContain('All rights reserved');
    });
  });
});

describe('decodeBody', () => {
  const sjis = iconv.encode('<html><head><title>灯台</title></head><body>日本語</body></html>', 'Shift_JIS');

  it('follows the Content-Type charset', () => {
    expect(decodeBody(sjis, 'text/html; charset=Shift_JIS', true)).toMatchObject({ text: expect.stringContaining('日本語'), encoding: 'Shift_JIS' });
  });

  it('finds a <meta charset> when the header says nothing', () => {
    const bytes = iconv.encode('<html><head><meta charset="windows-1252"></head><body>Café – “ok”</body></html>', 'win1252');
    expect(decodeBody(bytes, 'text/html', true).text).toContain('Café – “ok”');
    const httpEquiv = iconv.encode('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><p>日本語</p>', 'Shift_JIS');
    expect(decodeBody(httpEquiv, 'text/html', true).text).toContain('日本語');
  });

  it('decodes windows-1252 by its own table, not as ISO-8859-1 (0x80-0x9F are “ ” – € ...)', () => {
    const text = 'Café – “naïve” €5 • ok';
    expect(decodeBody(iconv.encode(text, 'win1252'), 'text/plain; charset=windows-1252', false).text).toBe(text);
    // The labels latin1 and iso-8859-1 mean windows-1252 on the web.
    expect(decodeBody(iconv.encode(text, 'win1252'), 'text/plain; charset=iso-8859-1', false).text).toBe(text);
    expect(decodeBody(iconv.encode(text, 'win1252'), 'text/plain', false)).toEqual({ text, encoding: 'windows-1252' });
  });

  it('lets a BOM win over the header', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('naïve', 'utf8')]);
    expect(decodeBody(bytes, 'text/html; charset=iso-8859-1', true)).toEqual({ text: 'naïve', encoding: 'UTF-8' });
  });

  it('takes undeclared valid UTF-8 as UTF-8 and anything else as windows-1252', () => {
    expect(decodeBody(Buffer.from('crème brûlée', 'utf8'), 'text/html', true)).toEqual({ text: 'crème brûlée', encoding: 'UTF-8' });
    expect(decodeBody(iconv.encode('crème brûlée', 'win1252'), 'text/plain', false)).toEqual({ text: 'crème brûlée', encoding: 'windows-1252' });
  });

  it('ignores a <meta> prescan outside HTML', () => {
    const bytes = Buffer.from('{"html": "<meta charset=\\"windows-1252\\">", "word": "naïve"}', 'utf8');
    expect(decodeBody(bytes, 'application/json', false).text).toContain('naïve');
  });
});

describe('urlKey', () => {
  it('normalises what does not change the resource', () => {
    expect(urlKey('HTTP://Example.COM:80/a//b/?z=1&a=2#frag')).toBe('http://example.com/a/b?a=2&z=1');
    expect(urlKey('https://example.com:443')).toBe('https://example.com/');
    expect(urlKey('https://example.com/path/')).toBe(urlKey('https://example.com/path'));
  });

  it('keeps what does', () => {
    expect(urlKey('https://example.com/Path')).not.toBe(urlKey('https://example.com/path'));
    expect(urlKey('https://example.com:8443/')).toBe('https://example.com:8443/');
    expect(urlKey('http://example.com/')).not.toBe(urlKey('https://example.com/'));
    expect(urlKey('https://example.com/?a=1&a=2')).toBe('https://example.com/?a=1&a=2');
  });

  it('drops the query only when asked', () => {
    expect(urlKey('https://example.com/p?utm=1', { ignoreQueryParameters: true })).toBe('https://example.com/p');
  });
});

describe('contentKind', () => {
  const none = new Uint8Array();
  it('reads the Content-Type first', () => {
    expect(contentKind('text/html; charset=utf-8', none)).toBe('html');
    expect(contentKind('application/xhtml+xml', none)).toBe('html');
    expect(contentKind('application/pdf', none)).toBe('pdf');
    expect(contentKind('application/ld+json', none)).toBe('json');
    expect(contentKind('application/rss+xml', none)).toBe('xml');
    expect(contentKind('text/csv', none)).toBe('text');
    expect(contentKind('image/png', Buffer.from('%PDF-1.7'))).toBe('unsupported');
  });

  it('sniffs the body when the type is missing or generic', () => {
    expect(contentKind('', Buffer.from('%PDF-1.4 ...'))).toBe('pdf');
    expect(contentKind('application/octet-stream', Buffer.from('  <!DOCTYPE html><html>'))).toBe('html');
    expect(contentKind('', Buffer.from('<?xml version="1.0"?><a/>'))).toBe('xml');
    expect(contentKind('', Buffer.from('[1, 2]'))).toBe('json');
    expect(contentKind('', Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe('unsupported');
  });
});
