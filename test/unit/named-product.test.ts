import { describe, expect, it } from 'vitest';
import { parsePage } from '../../src/scrape/html/parse-document';
import { headingNamesProduct } from '../../src/scrape/main-content/named-product';
import { processHtml } from '../../src/scrape/process/process-html';

const body = (html: string) => parsePage(`<!doctype html><html><body>${html}</body></html>`).body;

describe('headingNamesProduct', () => {
  it("is true when the heading names the JSON-LD's product, maybe with words around it", () => {
    expect(headingNamesProduct(body('<h1>The Vitality Elixir</h1>'), [{ '@type': 'Product', name: 'The VITALITY ELIXIR active antioxidant serum' }])).toBe(true);
    expect(headingNamesProduct(body('<h1>Acme Oak Shelf, 80 cm</h1>'), [{ '@graph': [{ '@type': 'Product', name: 'Oak Shelf' }] }])).toBe(true);
  });

  it("is true when the heading is a microdata product's name", () => {
    expect(headingNamesProduct(body('<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Oak Shelf</h1></div>'), [])).toBe(true);
  });

  it("is false for a category's heading, even one word of a product's name", () => {
    expect(headingNamesProduct(body('<h1>Shelves</h1>'), [{ '@type': 'Product', name: 'Oak Shelf' }])).toBe(false);
    expect(headingNamesProduct(body('<h1>Mugs</h1>'), [{ '@type': 'Product', name: 'Handmade mugs' }])).toBe(false);
    expect(headingNamesProduct(body('<h1>Oak Shelf</h1>'), [{ '@type': 'Organization', name: 'Oak Shelf' }])).toBe(false);
  });
});

describe('a product page with a carousel of other products to buy', () => {
  it('is read as the product, and the carousel goes', () => {
    const card = (name: string, price: string) => `<li class="tile"><a href="/shop/${name}">The ${name} mask, for every skin</a><span>$${price}</span><a href="?add-to-cart=${price}">Add to cart</a></li>`;
    const page = `<html><head><script type="application/ld+json">{"@type":"Product","name":"The Vitality Elixir rejuvenating serum"}</script></head><body><main>
      <h1>The Vitality Elixir</h1><p>$130</p><a href="?add-to-cart=1">Add to cart</a>
      <p>${'A serum of rosehip and jasmine oils that leaves the skin soft and bright. '.repeat(4)}</p>
      <section><h3>You may also like</h3><ul>${card('Bean', '85')}${card('Petal', '105')}${card('Indigo', '130')}${card('Unveil', '115')}${card('Nani', '60')}</ul></section>
    </main></body></html>`;
    const { text, metadata } = processHtml(page, 'https://shop.example.org/shop/vitality-elixir/', { formats: ['text'], onlyMainContent: true, removeBase64Images: true });
    expect(metadata.pageType).toBe('product');
    expect(text).toContain('rosehip and jasmine');
    expect(text).not.toContain('Petal mask');
  });
});
