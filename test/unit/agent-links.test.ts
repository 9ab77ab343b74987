import { describe, expect, it } from 'vitest';
import { callsForList, pickLinks, relevanceWords } from '../../src/agent/agent-links';
import { answerSources } from '../../src/agent/answer-sources';
import { urlKey } from '../../src/url/normalize-url';

const LIST = { type: 'object', properties: { products: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } } } };
const ONE = { type: 'object', properties: { sku: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } };

describe('when an agent run follows links', () => {
  it('follows for an array of objects in the schema, or a prompt asking for all, every, each or a list', () => {
    expect(callsForList('SKUs of the shop', LIST)).toBe(true);
    expect(callsForList('SKUs of the shop', { type: 'object', properties: { shop: LIST } })).toBe(true);
    expect(callsForList('Find every kettle', ONE)).toBe(true);
    expect(callsForList('The SKU of the kettle', ONE)).toBe(false);
    expect(callsForList('The SKU of the kettle', undefined)).toBe(false);
  });
});

describe('which links an agent run follows', () => {
  const words = relevanceWords('List the products with their SKU and price', LIST);
  const shop = {
    url: 'https://www.shop.example/',
    markdown: '[Copper kettle](https://shop.example/products/kettle) [About us](/about) [Price list](/prices) [Partner](https://other.example/products/lamp) [Home](/)',
    links: ['https://shop.example/products/kettle', 'https://www.shop.example/about', 'https://www.shop.example/prices', 'https://other.example/products/lamp', 'https://www.shop.example/'],
  };

  it('takes links of the same site (www aside) that share a word with the prompt or the schema, best first, never another host', () => {
    const picked = pickLinks([shop], words, new Set([urlKey(shop.url)]), 5);
    expect(picked.map((l) => l.url)).toEqual(['https://shop.example/products/kettle', 'https://www.shop.example/prices']);
    expect(picked[0]).toMatchObject({ text: 'Copper kettle' });
  });

  it('skips pages already read, and stops at the limit', () => {
    expect(pickLinks([shop], words, new Set([urlKey('https://shop.example/products/kettle')]), 5).map((l) => l.url)).toEqual(['https://www.shop.example/prices']);
    expect(pickLinks([shop], words, new Set(), 1)).toHaveLength(1);
  });
});

describe('an LLM answer’s sources', () => {
  it('names per field the pages that show its value, however a number is written', () => {
    const pages = [
      { url: 'https://a.example/', markdown: 'The **Copper kettle**, SKU CK-1, costs €1,064.50.' },
      { url: 'https://b.example/', markdown: 'Also sold: CK-1.' },
    ];
    expect(answerSources({ products: [{ sku: 'ck-1', price: 1064.5, name: 'Copper kettle', color: 'red', stock: true }] }, pages)).toEqual({
      'products[0].sku': ['https://a.example/', 'https://b.example/'],
      'products[0].price': ['https://a.example/'],
      'products[0].name': ['https://a.example/'],
    });
  });
});
