import { jsonLdNodes } from './schema-types';
import { selectAll } from '../html/css-selectors';

/**
 * Whether the page's heading names a product that its schema.org data describes (a JSON-LD
 * product's `name`, or the `itemprop="name"` of a microdata product): the page is that product's,
 * so priced cards and buy buttons around it are a carousel of other products, not a grid. A grid
 * has a heading of its own (the category's), which none of its products is named.
 */

const PRODUCT_TYPE = /^(?:Product|ProductGroup|IndividualProduct)$/;

const words = (value: string): string => (value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');

/** The names of the products the JSON-LD describes (top level, `@graph`, main entity). */
function jsonLdProductNames(jsonLd: readonly unknown[]): string[] {
  return jsonLdNodes(jsonLd, (record) => [record['@graph'], record.mainEntity])
    .filter((record) => ([] as unknown[]).concat(record['@type']).some((t) => typeof t === 'string' && PRODUCT_TYPE.test(t.replace(/^.*[/#:]/, ''))))
    .map((record) => (typeof record.name === 'string' ? record.name : ''));
}

/** The names a microdata product gives itself. */
function microdataProductNames(body: Element): string[] {
  return selectAll(body, '[itemtype*="schema.org/Product"] [itemprop="name"]').map((element) => element.getAttribute('content') ?? element.textContent ?? '');
}

/**
 * One says the other whole, word for word: a heading may add the brand or drop the product's
 * kind ("The VITALITY ELIXIR" for "The VITALITY ELIXIR active antioxidant serum"). A single word
 * inside a longer name is a category's ("Mugs"), so only a whole-heading match counts for it.
 */
function names(heading: string, name: string): boolean {
  if (!heading || !name) return false;
  if (heading === name) return true;
  const [shorter, longer] = heading.length < name.length ? [heading, name] : [name, heading];
  return shorter.includes(' ') && ` ${longer} `.includes(` ${shorter} `);
}

export function headingNamesProduct(body: Element, jsonLd: readonly unknown[]): boolean {
  const productNames = [...jsonLdProductNames(jsonLd), ...microdataProductNames(body)].map(words).filter(Boolean);
  if (productNames.length === 0) return false;
  return selectAll(body, 'h1').some((h1) => {
    const heading = words(h1.textContent ?? '');
    return productNames.some((name) => names(heading, name));
  });
}
