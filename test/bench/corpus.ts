/**
 * A reproducible corpus of real-world-sized HTML pages (20-300 KB) for the scrape benchmark.
 * Each page has what pages on the web carry besides their article: head metadata, inline CSS
 * and analytics, a navigation menu, a sidebar with related links and an ad slot, comments,
 * a footer of link columns and, on many, a hydration payload in a script tag. The article mixes
 * headings, paragraphs with inline links, lists, tables, code blocks, figures and quotes.
 */

import { seededRandom } from '../fixtures/seeded-random';

const WORDS = (
  'the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she there ' +
  'one all we their been has when who will more no if out so said what up its about into than them can only other new some could time ' +
  'these two may then do first any my now such like our over man me even most made after also did many before must through back years ' +
  'where much your way well down should because each just those people how too little state good very make world still own see men work ' +
  'long get here between both life being under never day same another know while last might us great old year off come since against go ' +
  'lighthouse harbour keeper lens signal coast tide beacon vessel chart current storm reef channel pilot compass lantern tower rock shore ' +
  'system network server request latency cache queue worker browser render document markdown parser schema database index transaction'
).split(' ');

const LANGUAGES = ['typescript', 'python', 'go', 'bash', 'sql'];

class Writer {
  constructor(readonly rand: () => number) {}

  int(min: number, max: number): number {
    return min + Math.floor(this.rand() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)]!;
  }

  words(n: number): string {
    return Array.from({ length: n }, () => this.pick(WORDS)).join(' ');
  }

  sentence(): string {
    const s = this.words(this.int(8, 24));
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
  }

  title(): string {
    return this.words(this.int(3, 8)).replace(/\b\w/g, (c) => c.toUpperCase());
  }

  slug(): string {
    return this.words(this.int(2, 4)).replace(/ /g, '-');
  }

  paragraph(): string {
    const parts = Array.from({ length: this.int(3, 7) }, () => this.sentence());
    if (this.rand() < 0.5) parts.splice(1, 0, `See <a href="/articles/${this.slug()}">${this.words(3)}</a> for more.`);
    if (this.rand() < 0.3) parts.push(`<strong>${this.words(4)}</strong> <em>${this.words(3)}</em>.`);
    return `<p>${parts.join(' ')}</p>`;
  }

  list(): string {
    const tag = this.rand() < 0.5 ? 'ul' : 'ol';
    return `<${tag}>${Array.from({ length: this.int(3, 9) }, () => `<li>${this.sentence()}</li>`).join('')}</${tag}>`;
  }

  table(): string {
    const cols = this.int(3, 6);
    const head = Array.from({ length: cols }, () => `<th>${this.title()}</th>`).join('');
    const rows = Array.from({ length: this.int(5, 40) }, () => `<tr>${Array.from({ length: cols }, (_, i) => `<td>${i === 0 ? this.words(2) : this.int(1, 99999)}</td>`).join('')}</tr>`);
    return `<table class="data"><caption>${this.sentence()}</caption><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
  }

  code(): string {
    const lines = Array.from({ length: this.int(5, 30) }, (_, i) => `${'  '.repeat(i % 4)}const ${this.pick(WORDS)}${i} = ${this.pick(WORDS)}(${this.int(0, 999)}); // ${this.words(4)}`);
    return `<pre><code class="language-${this.pick(LANGUAGES)}">${lines.join('\n')}</code></pre>`;
  }

  figure(): string {
    return `<figure><img src="/images/${this.slug()}.jpg" srcset="/images/${this.slug()}-2x.jpg 2x" alt="${this.words(5)}" width="${this.int(400, 1200)}" height="${this.int(300, 800)}" loading="lazy"><figcaption>${this.sentence()}</figcaption></figure>`;
  }

  section(): string {
    const blocks = [`<h2 id="${this.slug()}">${this.title()}</h2>`];
    for (let i = this.int(2, 6); i > 0; i--) {
      const r = this.rand();
      if (r < 0.55) blocks.push(this.paragraph());
      else if (r < 0.68) blocks.push(this.list());
      else if (r < 0.76) blocks.push(this.table());
      else if (r < 0.86) blocks.push(this.code());
      else if (r < 0.94) blocks.push(this.figure());
      else blocks.push(`<blockquote><p>${this.sentence()}</p></blockquote>`);
    }
    if (this.rand() < 0.3) blocks.push(`<h3>${this.title()}</h3>${this.paragraph()}`);
    return blocks.join('\n');
  }

  links(n: number, prefix: string): string {
    return Array.from({ length: n }, () => `<li><a href="/${prefix}/${this.slug()}">${this.title()}</a></li>`).join('');
  }

  css(): string {
    return Array.from({ length: this.int(40, 160) }, () => `.${this.slug()} { margin: ${this.int(0, 32)}px; color: #${this.int(0, 0xffffff).toString(16).padStart(6, '0')}; }`).join('\n');
  }

  /** A framework's hydration payload: JSON that carries the page's data a second time. */
  hydration(bytes: number): string {
    const items: unknown[] = [];
    let size = 0;
    while (size < bytes) {
      const item = { id: this.int(1, 1e9), slug: this.slug(), title: this.title(), summary: this.sentence(), tags: [this.pick(WORDS), this.pick(WORDS)] };
      size += JSON.stringify(item).length + 1;
      items.push(item);
    }
    return `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { items } } })}</script>`;
  }
}

export interface CorpusPage {
  path: string;
  html: string;
}

/** One page of about `targetBytes`, from `seed`. */
function corpusPage(seed: number, targetBytes: number): string {
  const w = new Writer(seededRandom(seed));
  const title = w.title();
  const hydrationShare = w.rand() < 0.6 ? w.int(10, 45) / 100 : 0;
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} | Harbour Notes</title><meta name="description" content="${w.sentence()}"><meta property="og:title" content="${title}">
<meta property="og:image" content="/images/${w.slug()}.jpg"><meta property="article:published_time" content="2026-0${w.int(1, 9)}-1${w.int(0, 9)}T08:00:00Z">
<link rel="canonical" href="/articles/${w.slug()}"><link rel="icon" href="/favicon.ico"><link rel="stylesheet" href="/static/site.css">
<style>${w.css()}</style>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','G-${w.int(1e6, 9e6)}');</script>
<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Article', headline: title, author: { '@type': 'Person', name: w.title() } })}</script>
</head><body>
<header class="site-header"><a class="logo" href="/">Harbour Notes</a><nav><ul>${w.links(w.int(8, 30), 'topics')}</ul></nav>
<form action="/search"><input name="q" placeholder="Search"><button>Go</button></form></header>
<div class="layout"><main><article><h1>${title}</h1><p class="byline">By ${w.title()} · ${w.int(3, 25)} min read</p>`;
  const tail = `</article>
<section class="comments"><h2>Comments</h2>${Array.from({ length: w.int(0, 12) }, () => `<div class="comment"><b>${w.words(2)}</b><p>${w.sentence()}</p></div>`).join('')}</section></main>
<aside class="sidebar"><h3>Related</h3><ul>${w.links(w.int(5, 15), 'articles')}</ul><div class="ad-slot" data-ad="${w.int(1, 1e6)}">Advertisement</div></aside></div>
<footer><div class="columns">${Array.from({ length: 4 }, () => `<ul>${w.links(w.int(4, 10), 'company')}</ul>`).join('')}</div><p>© 2026 Harbour Notes. All rights reserved.</p></footer>
<script src="/static/app.${w.int(1e5, 9e5)}.js" defer></script>`;
  const sections: string[] = [];
  const hydrationBytes = Math.round(targetBytes * hydrationShare);
  let size = head.length + tail.length + hydrationBytes + 20;
  while (size < targetBytes) {
    const s = w.section();
    sections.push(s);
    size += s.length;
  }
  return `${head}\n${sections.join('\n')}\n${tail}\n${hydrationBytes > 0 ? w.hydration(hydrationBytes) : ''}\n</body></html>`;
}

/** `count` pages whose sizes spread evenly over 20-300 KB, in a shuffled order. */
export function benchCorpus(count = 60): CorpusPage[] {
  return Array.from({ length: count }, (_, i) => {
    const target = 20_000 + Math.round((280_000 * ((i * 37) % count)) / (count - 1));
    return { path: `/bench/page-${i}`, html: corpusPage(1000 + i, target) };
  });
}
