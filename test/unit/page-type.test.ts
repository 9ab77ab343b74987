import { describe, expect, it } from 'vitest';
import { processHtml } from '../../src/scrape/process/process-html';

const process = (page: string, url = 'https://news.example.org/') => processHtml(page, url, { formats: ['markdown'], onlyMainContent: true, removeBase64Images: true });

const HEADLINES = [
  'City council approves the new cycle lanes after a long debate',
  'Chip maker opens its third factory in the region this spring',
  'Why the river flooded twice in one winter, and what comes next',
  'The school that swapped homework for reading hours, one year on',
  'Local bakery wins the national bread award for the second time',
  'Storm knocks out power to thousands of homes across the valley',
  'What the new rail timetable means for your morning commute',
  'Hospital trials a walk-in clinic open until midnight every day',
  'Museum returns a painting to the family it was taken from',
  'A guide to the summer festivals worth travelling for this year',
  'Housing prices cool for the first time since the pandemic',
  'The last video shop in town closes its doors after forty years',
];

describe('page type of a front page of stories', () => {
  it('is a listing when its stories are linked headlines, in sections of differently built cards, with no structured data', () => {
    const lead = (title: string, i: number) => `<div class="lead"><h3><a href="/story/${i}">${title}</a></h3><span>By A. Writer</span></div>`;
    const page = `<html><body><header><a href="/">The Valley Times</a></header><main>
      <section><h2>Top stories</h2>${HEADLINES.slice(0, 4).map(lead).join('')}</section>
      <section><h2>Around town</h2><ul>${HEADLINES.slice(4, 8).map((t, i) => `<li><a href="/story/${i + 4}">${t}</a></li>`).join('')}</ul></section>
      <section><h2>Features</h2>${HEADLINES.slice(8).map((t, i) => `<article class="feature"><a href="/story/${i + 8}">${t}</a></article>`).join('')}</section>
    </main></body></html>`;
    const { metadata, markdown } = process(page);
    expect(metadata.pageType).toBe('listing');
    for (const title of HEADLINES) expect(markdown).toContain(title);
  });

  it("does not count long links in the site's menus and footer around a landing page", () => {
    const menu = `<nav><ul>${HEADLINES.map((t, i) => `<li><a href="/story/${i}">${t}</a></li>`).join('')}</ul></nav>`;
    const section = (name: string) => `<section><h2>${name}</h2><p>We plan, build and look after gardens for homes and offices.</p><a class="btn" href="/contact">Get a quote</a></section>`;
    const page = `<html><body>${menu}<main><h1>Garden design</h1>${['Planting', 'Paving', 'Lighting', 'Upkeep'].map(section).join('')}</main><footer>${menu}</footer></body></html>`;
    const { mainContent } = process(page, 'https://gardens.example.org/');
    expect(mainContent?.pageTypeEvidence?.join(' ')).not.toContain('headline links');
  });

  it('is a collection, not a listing, when the linked names are priced products', () => {
    const card = (title: string, i: number) => `<li class="tile"><a href="/p/${i}">${title} print, framed in oak</a><span>$${20 + i}.00</span></li>`;
    const page = `<html><body><main><h1>Prints</h1><ul class="grid">${HEADLINES.map(card).join('')}</ul></main></body></html>`;
    expect(process(page, 'https://shop.example.org/prints').metadata.pageType).toBe('collection');
  });
});
