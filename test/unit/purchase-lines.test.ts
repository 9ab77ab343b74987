import { describe, expect, it } from 'vitest';
import { dropPickers, dropPolicyParagraphs, dropPurchaseLines } from '../../src/scrape/main-content/purchase-lines';
import { prunedText } from './pruned-text';

/** The product page `body` after pruning keeps every one of `kept` and none of `dropped`. */
function expectPruned(body: string, kept: readonly string[], dropped: readonly string[]): void {
  const text = prunedText(body, dropPurchaseLines);
  for (const line of kept) expect(text).toContain(line);
  for (const line of dropped) expect(text).not.toContain(line);
}

describe('dropPurchaseLines', () => {
  it("drops the shop's delivery, returns, payment, points, stock and rating lines; keeps the product", () => {
    expectPruned(
      '<h1>Arrival T-Shirt</h1><p>$22</p><p>Select a size</p><p>4.4 out of 5 stars</p><span>(1,935) ratings</span><p>or 4 interest-free payments of $5.50 with <b>Klarna</b></p>' +
        '<ul><li><p>Standard Delivery (4-7 Working Days)</p></li><li><p>Free Standard Delivery for orders over $75</p></li></ul><p>Free 90-day returns</p>' +
        '<p>Members <a href="/rewards">earn 176 points</a> on this purchase</p><p>In stock</p>' +
        '<h2>Description</h2><p>A lightweight gym top with sweat-wicking technology. Free delivery van not included: this is a T-shirt, and the next paragraph is about shipping only in passing, in a sentence long enough to be the product description rather than a promise of the shop.</p><p>100% Polyester</p>',
      ['Arrival T-Shirt', '$22', 'sweat-wicking', '100% Polyester'],
      ['Select a size', 'out of 5', 'ratings', 'payments', 'Delivery', 'returns', 'points', 'In stock'],
    );
  });

  it('drops such a line where it is loose text between blocks, keeping the blocks and the lines beside them', () => {
    expectPruned(
      '<h1>Command Decorating Clips</h1><div><section><h2>Price Alert</h2></section><!-- alert --><a href="/accounts/login/">Log in</a> to set a price alert on this product.' +
        '<div class="specs"><h2>Specifications</h2><p>Manufacturer: 3M</p></div>Holds up to 225 g per clip, on painted walls, wood and tile.</div>',
      ['Command Decorating Clips', 'Specifications', 'Manufacturer: 3M', 'Holds up to 225 g per clip'],
      ['price alert on this product'],
    );
  });

  it("drops price terms, the seller's standing, add-on plans and ways to pay; keeps the product", () => {
    expectPruned(
      '<h1>KALLAX Shelf unit</h1><p>Price $79.99</p><p>Best seller</p><p>VAT included (where applicable), plus shipping</p><p>Price when purchased online</p>' +
        '<p>Low Price Guarantee</p><p>More ways to pay</p><p>Walmart Protection Plan by Allstate</p><p>This item is gift eligible</p><p>More seller options (2)</p>' +
        '<h2>About this seller</h2><p>Seller feedback</p><h2>Product details</h2><p>A simple shelving unit with smooth surfaces and rounded edges, to stand on the floor or hang on a wall.</p>',
      ['KALLAX Shelf unit', 'Price $79.99', 'rounded edges'],
      ['Best seller', 'VAT', 'purchased online', 'Guarantee', 'ways to pay', 'Protection Plan', 'gift', 'seller options', 'About this seller', 'Seller feedback'],
    );
  });

  it("drops the shop's promise badges and same-day shipping; keeps a sentence that mentions them", () => {
    expectPruned(
      '<h1>Mako Driver Kit</h1><p>Easy Returns</p><p>Fast shipping</p><p>Same day shipping if ordered by 4PM Eastern.</p>' +
        '<p>Fast shipping of parts matters to repair shops, so this kit packs 64 bits into a case small enough to ship in a padded envelope.</p>',
      ['Mako Driver Kit', 'padded envelope'],
      ['Easy Returns', 'Fast shipping\n', 'Same day'],
    );
  });

  it("drops saving for later, price alerts, offers, bulk pricing, sharing, others' carts and today's pickup; keeps the product", () => {
    expectPruned(
      '<h1>Ninja Kitchen System</h1><p>$129.00</p><p>In 50+ people\'s carts</p><p>Pickup today</p><p>Shipping, arrives tomorrow</p>' +
        '<p>Sign in to add this item to your wishlist</p><p>Log in to set a price alert on this product.</p><p>You can only make an offer when buying a single item</p>' +
        '<p>See Bulk Discounts</p><p>Share this product</p><p>Purchasing this product earns 176XP</p>' +
        '<p>A 72 oz pitcher that crushes ice to snow in seconds, with Auto-iQ programs for smoothies and frozen drinks.</p>',
      ['Ninja Kitchen System', '$129.00', 'crushes ice'],
      ['carts', 'Pickup', 'arrives', 'wishlist', 'price alert', 'offer', 'Bulk', 'Share', 'XP'],
    );
  });

  it("drops members' rewards, price-drop refunds, duties, a marketplace seller's badges, a rating count, a lone quantity label and an AI summary's notice; keeps what a membership includes and a spec table", () => {
    expectPruned(
      '<h1>Trail 25 Pack</h1><p>$99.95</p><p>Members get an est. $9.99 in rewards</p><p>$9 Member Reward</p><p>This purchase pays for membership!</p>' +
        '<p>Price drops? Get the difference back within 90 days</p><p>Duties and Taxes Paid</p><p>Star Seller. This seller consistently earned 5-star reviews.</p><p>Sell it back</p><p>No feedback yet</p>' +
        '<p>4.4 stars out of 1935 reviews</p><p>Quantity</p><div>Generated by AI</div><p>Current Selected color black</p><p>We stand behind our tools. If something breaks, we will replace it.</p><p>🔥Don\'t forget your OS, we have Windows 11 OEM versions available</p><p>Sacramento, 95829</p><p>Personalize your KALLAX with inserts &amp; accessories <a href="/inserts">Shop now</a></p><p>Try 30 days for just $1! Choose annual plan at checkout.</p><table><tr><td>Color</td><td>Black</td></tr></table>' +
        '<p>Members receive free access to select bonus experiences.</p><p>A 25-liter daypack with pockets galore for quick access to all your essentials.</p>',
      ['Trail 25 Pack', '$99.95', 'Members receive free access', 'pockets galore', 'Color'],
      ['est. $9.99', 'Member Reward', 'pays for membership', 'difference back', 'Duties', 'Star Seller', 'Sell it back', 'feedback', '1935 reviews', 'Quantity', 'Generated by AI', 'Selected color', 'annual plan', 'stand behind', 'forget', 'Sacramento', 'inserts'],
    );
  });

  it('drops option pickers (a fieldset or radio group with its legend and choice), not a longer form', () => {
    const text = prunedText(
      '<h1>Quarter Socks</h1><fieldset><legend>Color: white</legend></fieldset><div role="radiogroup">Size: L</div>' +
        '<fieldset><legend>How do you want your item?</legend><p>Pickup today</p></fieldset>' +
        `<fieldset><legend>Your measurements</legend><p>${'Measure around the fullest part of your calf, standing, with the tape level all the way round. '.repeat(2)}</p></fieldset>`,
      dropPickers,
    );
    expect(text).toContain('Quarter Socks');
    expect(text).not.toMatch(/Color: white|Size: L|How do you want/);
    expect(text).toContain('fullest part of your calf');
  });

  it("drops a paragraph of the shop's return and warranty terms, not a description that mentions a warranty", () => {
    const text = prunedText(
      '<h1>Smart Bird Feeder</h1><p>We offer a 90-day return policy. To return your order, please contact our support team within 90 days of receiving it. Our standard warranty period is 24 months.</p>' +
        '<p>The camera module is weatherproof and comes with a 2-year warranty; it detaches in seconds, so you can bring it indoors on the coldest days.</p>',
      dropPolicyParagraphs,
    );
    expect(text).not.toContain('90-day return');
    expect(text).toContain('weatherproof');
  });
});
