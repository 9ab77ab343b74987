import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closest, matches, selectAll, selectOne } from '../../src/scrape/html/css-selectors';
import { parsePage } from '../../src/scrape/html/parse-document';
import { loadWcxb } from '../content/wcxb-corpus';

/** Selectors of the kinds the cleaning and main-content rules ask: tags, attributes, lists, descendants, :not. */
const SELECTORS = [
  '*',
  'h1',
  'a[href]',
  'main, [role="main"]',
  '[itemtype*="schema.org/Product"] [itemprop="name"]',
  'button[aria-controls], button[aria-expanded], [role="tab"]',
  '[style], [class], [hidden], [aria-hidden="true"]',
  'input[type="email" i], textarea',
  'ul > li:first-child',
  'div:not([class])',
  'header nav a',
  'H2, Section',
];

describe('CSS selectors compiled once', () => {
  it("answer what linkedom's querySelectorAll, querySelector, matches and closest answer on real pages", () => {
    const pages = loadWcxb(path.join(__dirname, '../fixtures/wcxb'));
    expect(pages.length).toBeGreaterThan(0);
    let compared = 0;
    for (const page of pages) {
      const document = parsePage(page.html.toString('utf8'));
      const elements = [...document.body.querySelectorAll('*')];
      for (const selector of SELECTORS) {
        const where = `${page.id} ${selector}`;
        expect(selectAll(document, selector), where).toEqual([...document.querySelectorAll(selector)]);
        expect(selectAll(document.body, selector), where).toEqual([...document.body.querySelectorAll(selector)]);
        expect(selectOne(document.body, selector), where).toBe(document.body.querySelector(selector));
        for (const element of elements.filter((_, i) => i % 20 === 0)) {
          expect(matches(element, selector), where).toBe(element.matches(selector));
          expect(closest(element, selector), where).toBe(element.closest(selector));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(2_000);
  });

  it('take a missing element as having no match, and throw on an invalid selector as the DOM does', () => {
    expect(closest(null, 'div')).toBeNull();
    const document = parsePage('<html><body><p>Tide</p></body></html>');
    expect(() => selectAll(document, 'p[')).toThrow();
    expect(() => document.querySelectorAll('p[')).toThrow();
  });
});
