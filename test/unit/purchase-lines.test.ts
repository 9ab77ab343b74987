import { describe, expect, it } from 'vitest';
import { dropPurchaseLines } from '../../src/scrape/main-content/purchase-lines';
import { prunedText } from './pruned-text';

const product = (body: string) => prunedText(body, dropPurchaseLines);

describe('dropPurchaseLines', () => {
  it("drops the shop's delivery, returns, payment, points, stock and rating lines; keeps the product", () => {
    const text = product(
      '<h1>Arrival T-Shirt</h1><p>$22</p><p>Select a size</p><p>4.4 out of 5 stars</p><span>(1,935) ratings</span><p>or 4 interest-free payments of $5.50 with <b>Klarna</b></p>' +
        '<ul><li><p>Standard Delivery (4-7 Working Days)</p></li><li><p>Free Standard Delivery for orders over $75</p></li></ul><p>Free 90-day returns</p>' +
        '<p>Members <a href="/rewards">earn 176 points</a> on this purchase</p><p>In stock</p>' +
        '<h2>Description</h2><p>A lightweight gym top with sweat-wicking technology. Free delivery van not included: this is a T-shirt, and the next paragraph is about shipping only in passing, in a sentence long enough to be the product description rather than a promise of the shop.</p><p>100% Polyester</p>',
    );
    expect(text).toContain('Arrival T-Shirt');
    expect(text).toContain('$22');
    expect(text).toContain('sweat-wicking');
    expect(text).toContain('100% Polyester');
    for (const line of ['Select a size', 'out of 5', 'ratings', 'payments', 'Delivery', 'returns', 'points', 'In stock']) expect(text).not.toContain(line);
  });
});
