import { describe, expect, it } from 'vitest';
import { parsePage } from '../../src/scrape/html/parse-document';
import { productFacts } from '../../src/scrape/main-content/product-facts';

const offer = (price: string | number, currency = 'USD') => [{ '@type': 'Product', name: 'Arrival T-Shirt', offers: { '@type': 'Offer', price, priceCurrency: currency } }];

function withFacts(body: string, jsonLd: unknown[]): string {
  const root = parsePage(`<html><body>${body}</body></html>`).body;
  productFacts(root, jsonLd);
  return (root.textContent ?? '').replace(/\s+/g, ' ').trim();
}

describe('productFacts', () => {
  it('adds the offer price the content lacks, not one it prints in its own format', () => {
    expect(withFacts('<h1>Arrival T-Shirt</h1>', offer(22))).toContain('22 USD');
    expect(withFacts('<h1>Arrival T-Shirt</h1><p>$22</p>', offer(22))).not.toContain('USD');
    expect(withFacts('<h1>Arrival T-Shirt</h1><div>$22</div><div>Black</div>', offer(22))).not.toContain('USD');
    expect(withFacts('<h1>Arrival T-Shirt</h1><p>$5,700.00</p>', offer('5700.000'))).not.toContain('USD');
    expect(withFacts('<h1>Arrival T-Shirt</h1><p>13,29€</p>', offer('13.29', 'EUR'))).not.toContain('EUR');
    // Another amount, or the number outside a price, does not say it.
    expect(withFacts('<h1>Arrival T-Shirt</h1><p>$299.00</p><p>Pack of 179</p>', offer(179))).toContain('179 USD');
  });
});
