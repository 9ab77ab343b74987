import { describe, expect, it } from 'vitest';
import { parsePage } from '../../src/scrape/html/parse-document';
import { toText } from '../../src/scrape/html/to-text';
import { extractMainContent } from '../../src/scrape/main-content/extract-main-content';

describe('extractMainContent', () => {
  it('takes the region with its link lists when the pruned region keeps too little, before Readability and the whole page', () => {
    const letters = ['Anchors', 'Bolts', 'Clamps', 'Hinges', 'Nuts', 'Rivets', 'Screws', 'Washers'];
    const index = letters.map((name) => `<div class="letter">${name[0]}</div><div class="items"><a href="/c/${name}">${name}</a> <a href="/c/${name}-kits">${name} kits</a></div>`).join('');
    const menu = `<nav>${Array.from({ length: 30 }, (_, i) => `<a href="/m/${i}">Menu entry ${i}</a>`).join(' ')}</nav>`;
    const page = `<html><body>${menu}<main><h1>Fastener categories</h1>${index}</main></body></html>`;
    const main = extractMainContent(parsePage(page), { type: 'listing', evidence: [] }, [], () => parsePage(page));
    const text = toText(main.root);
    expect(main.method).toBe('region');
    expect(main.passedOver.map((p) => p.method)).toEqual(['region']);
    expect(text).toContain('Rivets kits');
    expect(text).not.toContain('Menu entry');
  });

  it('runs the cascade on a fresh copy of a chrome-only page when keeping its own text throws', () => {
    const links = Array.from({ length: 30 }, (_, i) => `<li><a href="/m/${i}">Menu entry ${i}</a></li>`).join('');
    const page = `<html><body><nav><ul>${links}</ul></nav><footer><ul>${links}</ul></footer><main><p>Closed for the winter.</p></main></body></html>`;
    // JSON-LD that throws when read: the first reader (the chrome-only region's author-bio rule) fails.
    const unreadable = { [Symbol.iterator]: () => { throw new Error('unreadable JSON-LD'); } } as unknown as unknown[];
    const main = extractMainContent(parsePage(page), { type: 'article', evidence: [] }, unreadable, () => parsePage(page), true);
    expect(main.passedOver[0]).toEqual({ method: 'region', reason: "outside the page's chrome: Error: unreadable JSON-LD" });
    expect(main.method).not.toBe('none');
    expect(toText(main.root)).toContain('Menu entry');
  });

  it("keeps an article's region when Readability's pick leaves out nearly half of it, a section of the content", () => {
    const note = (i: number) => `<p>Training note ${i}: ${'Each weekend the long run gets longer, peaking at twenty miles three weeks before the race, and a taper lets runners gather energy. '.repeat(5)}</p>`;
    // The plans' container has a class Readability scores down ("media"), so its pick is the notes alone: 0.54 of the region.
    const plan = (i: number) => `<div class="plan"><h3><a href="/plans/${i}">Plan ${i}</a></h3><p>Plan ${i} suits runners who train four days a week on a gentle build.</p></div>`;
    const html = `<html><body><main><h1>Marathon Training</h1><div class="entry">${[1, 2, 3, 4].map(note).join('')}</div><div class="plans media">${Array.from({ length: 32 }, (_, i) => plan(i)).join('')}</div></main></body></html>`;
    const main = extractMainContent(parsePage(html), { type: 'article', evidence: [] }, [], () => parsePage(html));
    expect(main.method).toBe('region');
    expect(toText(main.root)).toContain('Plan 31 suits runners');
    expect(toText(main.root)).toContain('Training note 4');
  });

  it("drops the shop's purchase lines from Readability's pick of a product page too", () => {
    // The description sits in a drawer (a non-modal dialog), which the region drops as chrome,
    // as it does the reviews and the carousel beside it: too little is left.
    const carousel = `<aside>${Array.from({ length: 12 }, (_, i) => `<a href="/p/${i}">Training shorts model ${i}</a>`).join(' ')}</aside>`;
    const reviews = Array.from({ length: 22 }, (_, i) => `<div class="review-card"><b>Buyer ${i}</b><span>Great fit</span></div>`).join('');
    const page = `<html><body><main><h1>Arrival T-Shirt</h1><p>$22</p><section class="reviews">${reviews}</section>${carousel}<div role="dialog" aria-modal="false"><div>
      <p>Free Standard Delivery for orders over $75</p><p>Loading...</p>
      <p>${'The Arrival T-Shirt is a lightweight gym top with sweat-wicking fabric and flatlock seams, made to move with you. '.repeat(2)}</p>
      <p>${'A slim fit with set-in sleeves and a crew neck, in 100% polyester that dries fast between sets. '.repeat(2)}</p>
    </div></div></main></body></html>`;
    const main = extractMainContent(parsePage(page), { type: 'product', evidence: [] }, [], () => parsePage(page));
    const text = toText(main.root);
    expect(main.method).toBe('readability');
    expect(text).toContain('sweat-wicking fabric');
    expect(text).not.toContain('Free Standard Delivery');
    expect(text).not.toContain('Loading');
  });

  it("says an article's long paragraph once when its hero repeats it, and keeps a reply's quote of a post", () => {
    const intro = 'LSC is an independent nonprofit established by Congress in 1974 to provide financial support for civil legal aid to low-income Americans in every state.';
    const body = '<p>If you are looking for help with a civil legal problem, enter an address or city below to find a legal aid organization near you.</p>';
    const page = (type: 'article' | 'forum') => {
      const html = `<html><body><main><h1>Legal help</h1><div class="hero"><p>${intro}</p></div><div class="body"><p>${intro}</p>${body}</div></main></body></html>`;
      return toText(extractMainContent(parsePage(html), { type, evidence: [] }, [], () => parsePage(html)).root);
    };
    expect(page('article').split(intro)).toHaveLength(2);
    expect(page('forum').split(intro)).toHaveLength(3);
  });

  it("keeps a book's editorial review on a product page, drops the customers' reviews and what curators say", () => {
    const praise = '"A supremely practical and useful book. It distills the most fundamental information about habit formation."';
    const html = `<html><body><main><h1>Atomic Habits</h1><p>${'Tiny changes, remarkable results: a proven framework for improving every day, with practical strategies. '.repeat(3)}</p>
      <h2>Editorial Reviews</h2><div><h3>Review</h3><p>${praise}</p></div>
      <h2>Customers say</h2><p>Customers find this book to be a great practical guide that explains the science of habit formation.</p>
      <h2>What Curators Say</h2><p>743 Curators have reviewed this product. Click here to see them.</p></main></body></html>`;
    const text = toText(extractMainContent(parsePage(html), { type: 'product', evidence: [] }, [], () => parsePage(html)).root);
    expect(text).toContain(praise);
    expect(text).not.toContain('Customers find this book');
    expect(text).not.toContain('Curators have reviewed');
  });

  it("takes a thin product region when the JSON-LD's description makes it enough, rather than the page with its menus", () => {
    const description =
      'These Quarters are engineered for comfort and designed to stand out: higher than an ankle sock, lower than a calf sock, right for a million different shoes, styles, looks, activities and lazy Sundays. As always, one purchased is one donated.';
    const menu = `<ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/c/${i}">Collection ${i}</a></li>`).join('')}</ul>`;
    const html = `<html><body><div class="menus">${menu}</div><div class="menus">${menu}</div><div class="menus">${menu}</div><div class="menus">${menu}</div><main><h1>Men's Quarter Socks</h1><p>Midweight</p><p>Just enough cushion for your everyday shoes.</p></main></body></html>`;
    const jsonLd = [{ '@type': 'Product', name: "Men's Quarter Socks", description }];
    const main = extractMainContent(parsePage(html), { type: 'product', evidence: [] }, jsonLd, () => parsePage(html));
    const text = toText(main.root);
    expect(main.method).toBe('region');
    expect(text).toContain(description);
    expect(text).not.toContain('Collection 7');
  });
});
