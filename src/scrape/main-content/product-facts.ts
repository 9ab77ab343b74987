/**
 * What a product page's JSON-LD says of the product (name, description, price) and its visible
 * HTML may hold only in a script-filled tab: appended to the content when the content lacks it.
 */

import { toText } from '../html/to-text';

interface Offer {
  price?: unknown;
  lowPrice?: unknown;
  priceCurrency?: unknown;
}

function products(node: unknown, depth = 0): Record<string, unknown>[] {
  if (depth > 4 || node === null || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap((n) => products(n, depth + 1));
  const record = node as Record<string, unknown>;
  const types = ([] as unknown[]).concat(record['@type']);
  const own = types.some((t) => typeof t === 'string' && /^(?:Product|ProductGroup|IndividualProduct)$/.test(t)) ? [record] : [];
  return [...own, ...products(record['@graph'], depth + 1), ...products(record.mainEntity, depth + 1)];
}

const text = (value: unknown): string => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '');
const words = (value: string): string[] => value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Most of a fact's words already on the page: the page says it, maybe worded or marked up a little differently. */
const SAID = 0.6;

/** The values a printed amount may stand for: `1,299.00` and `1.299,00` alike, `13,29` as 13.29. */
function amounts(printed: string): number[] {
  const digits = printed.replace(/[^\d.,]/g, '');
  return [Number(digits.replace(/,/g, '')), Number(digits.replace(/\./g, '').replace(',', '.'))].filter(Number.isFinite);
}

/** An amount with its currency sign or code on either side, as the content's text lines print it. */
const PRICE = /[$€£¥₹]\s*\d[\d.,]*|\d[\d.,]*\s*(?:€|\$|£|kr|zł|USD|EUR|GBP)(?![\p{L}\p{N}])/gu;

/** The page already prints this amount as a price, in its own format (`$22` for an offer of `22 USD`). */
function pricePrinted(amount: number, text: string): boolean {
  return [...text.matchAll(PRICE)].some(([printed]) => amounts(printed).some((value) => Math.abs(value - amount) < 0.005));
}

/** `shown` reads the content as text, only when there is a price to look for. */
function price(offers: unknown, shown: () => string): string {
  const offer = (Array.isArray(offers) ? offers[0] : offers) as Offer | undefined;
  const amount = offer?.price ?? offer?.lowPrice;
  if (typeof amount !== 'string' && typeof amount !== 'number') return '';
  if (pricePrinted(Number(amount), shown())) return '';
  return `${amount}${typeof offer?.priceCurrency === 'string' ? ` ${offer.priceCurrency}` : ''}`;
}

export function productFacts(root: Element, jsonLd: readonly unknown[]): void {
  const [product] = jsonLd.flatMap((block) => products(block));
  if (!product) return;
  const have = new Set(words(root.textContent ?? ''));
  const document = root.ownerDocument;
  const add = (tag: string, value: string) => {
    const said = words(value);
    if (said.length === 0 || said.filter((w) => have.has(w)).length >= said.length * SAID) return;
    const element = document.createElement(tag);
    element.textContent = value;
    root.appendChild(element);
  };
  add('h2', text(product.name));
  add('p', text(product.description));
  // Read as the text format breaks lines: textContent runs blocks together (`$7.954.9 stars`).
  add('p', price(product.offers, () => toText(root)));
}
