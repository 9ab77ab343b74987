/**
 * What a product page's JSON-LD says of the product (name, description, price) and its visible
 * HTML may hold only in a script-filled tab: appended to the content when the content lacks it.
 */

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
const squash = (value: string) => value.replace(/\s+/g, ' ').toLowerCase();

function price(offers: unknown): string {
  const offer = (Array.isArray(offers) ? offers[0] : offers) as Offer | undefined;
  const amount = offer?.price ?? offer?.lowPrice;
  if (typeof amount !== 'string' && typeof amount !== 'number') return '';
  return `${amount}${typeof offer?.priceCurrency === 'string' ? ` ${offer.priceCurrency}` : ''}`;
}

export function productFacts(root: Element, jsonLd: readonly unknown[]): void {
  const [product] = jsonLd.flatMap((block) => products(block));
  if (!product) return;
  const have = squash(root.textContent ?? '');
  const document = root.ownerDocument;
  const add = (tag: string, value: string) => {
    if (!value || have.includes(squash(value).slice(0, 200))) return;
    const element = document.createElement(tag);
    element.textContent = value;
    root.appendChild(element);
  };
  add('h2', text(product.name));
  add('p', text(product.description));
  add('p', price(product.offers));
}
