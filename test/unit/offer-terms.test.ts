import { describe, expect, it } from 'vitest';
import { dropOfferTerms } from '../../src/scrape/main-content/offer-terms';
import { prunedText } from './pruned-text';

const card = (name: string, price: string) => `<li><a href="/p/${price}">${name}</a><p>$${price}</p><p>A compact stove for two, with a wind screen.</p></li>`;

describe('dropOfferTerms', () => {
  it('drops a promotion tile among the items, with its headline and call to action', () => {
    const text = prunedText(
      `<ul>${card('Camp Stove', '99')}<li><div><h2>Get $130 in value</h2><p>$30 in card rewards are yours when approved for the Co-op Mastercard by Mar 9. Terms apply.</p><a href="/apply">Apply now</a></div></li>${card('Skillet', '45')}${card('Two-Burner Stove', '149')}${card('Butane Fuel Canister', '9')}${card('Cook Set', '89')}</ul>`,
      dropOfferTerms,
    );
    const blurb = 'A compact stove for two, with a wind screen.';
    expect(text).toBe(`Camp Stove\n$99\n\n${blurb}\n\nSkillet\n$45\n\n${blurb}\n\nTwo-Burner Stove\n$149\n\n${blurb}\n\nButane Fuel Canister\n$9\n\n${blurb}\n\nCook Set\n$89\n\n${blurb}`);
  });

  it("drops a wall of financing footnotes, keeps the page's text and an item's own conditions", () => {
    const coupon = (title: string) => `<li><h3>${title}</h3><p>Not valid with other offers or coupons, some restrictions may apply.</p></li>`;
    const text = prunedText(
      `<p>Sofas for every room, in leather and fabric.</p><ul>${coupon('10% Off Panel Upgrade')}${coupon('$25 Off Troubleshooting')}</ul>` +
        '<div><p>No interest for 5 years</p><p>On purchases made with your store credit card. 60 equal monthly payments required.</p><p>Subject to credit approval. See store for details.</p></div>',
      dropOfferTerms,
    );
    expect(text).toBe(
      'Sofas for every room, in leather and fabric.\n\n10% Off Panel Upgrade\n\nNot valid with other offers or coupons, some restrictions may apply.\n\n$25 Off Troubleshooting\n\nNot valid with other offers or coupons, some restrictions may apply.',
    );
  });
});
