import { describe, expect, it } from 'vitest';
import { dropRepeatedBlocks } from '../../src/scrape/main-content/repeated-blocks';
import { prunedText } from './pruned-text';

const dedupe = (body: string) => prunedText(body, dropRepeatedBlocks);

const DESCRIPTION = '<p>Join me each week for a live class.</p><ul><li>Access to all live classes</li><li>Q&amp;A time in each class</li></ul>';

describe('dropRepeatedBlocks', () => {
  it('keeps one copy of a section shipped twice (mobile and desktop)', () => {
    const text = dedupe(`<h1>Subscription</h1><div class="mobile">${DESCRIPTION}</div><div class="desktop">${DESCRIPTION}</div>`);
    expect(text.match(/Join me each week/g)).toHaveLength(1);
    expect(text.match(/Access to all live classes/g)).toHaveLength(1);
  });

  it('keeps a repeated single paragraph, a quoted post and a wrapper with its only section', () => {
    const fine = '<p>Not valid with other offers or coupons, some restrictions may apply.</p>';
    const post = '<p>I have been getting Bad Gateway errors since the announcement.</p><p>Is the forum closing?</p>';
    const text = dedupe(`<div><h3>10% off</h3>${fine}</div><div><h3>20% off</h3>${fine}</div><div>${post}</div><blockquote><div>${post}</div></blockquote><section><div>${DESCRIPTION}</div></section>`);
    expect(text.match(/Not valid/g)).toHaveLength(2);
    expect(text.match(/Bad Gateway/g)).toHaveLength(2);
    expect(text.match(/Join me each week/g)).toHaveLength(1);
  });

  it("drops the twin of an element said again right beside it, not equal table cells", () => {
    const text = dedupe(
      '<div class="price"><span class="sr-copy">EUR 20.99</span><span>EUR 20.99</span></div><p>Luxe Sateen sheets</p><p>Luxe Sateen sheets</p>' +
        '<table><tr><td>Optional upgrade</td><td>Optional upgrade</td></tr></table>',
    );
    expect(text.match(/EUR 20\.99/g)).toHaveLength(1);
    expect(text.match(/Luxe Sateen/g)).toHaveLength(1);
    expect(text.match(/Optional upgrade/g)).toHaveLength(2);
  });

  it('keeps one copy of a guide shipped as a desktop layout and a mobile accordion, and mobile-only words said once', () => {
    const guide = '<p>Carry-on luggage is your travel companion, designed to hold your essentials.</p><p>Carry-on sizes vary with the airline and its regulations.</p>';
    const text = dedupe(
      `<div class="d-none d-md-block"><h3>The essentials of carry-on luggage</h3>${guide}</div>` +
        `<div class="accordion d-md-none"><div class="card"><div class="card-header">The essentials</div><div class="collapse">${guide}</div></div></div>` +
        '<div class="md:hidden"><p>Free delivery on every carry-on ordered this week.</p><p>Free returns for 60 days on every suitcase.</p></div>',
    );
    expect(text.match(/travel companion/g)).toHaveLength(1);
    expect(text.match(/Carry-on sizes vary/g)).toHaveLength(1);
    expect(text).toContain('Free delivery on every carry-on');
  });

  it("with paragraphs, keeps one copy of a long paragraph said again (a product's description in its tab and its accordion), not of a quote's or a short one", () => {
    const description = '<p>The AS Colour Staple Tee. Enduring comfort in a regular fit, crafted from 5.3 oz 100% combed cotton, with neck ribbing, side seams and double needle hems.</p>';
    const quote = '<blockquote>' + description + '</blockquote>';
    const text = prunedText(`<div class="summary">${description}</div><div class="tab"><h2>Description</h2>${description}</div><p>Regular fit</p><h3>Sizing</h3><p>Regular fit</p>${quote}`, (root) => dropRepeatedBlocks(root, true));
    expect(text.match(/Enduring comfort/g)).toHaveLength(2);
    expect(text.match(/Regular fit/g)).toHaveLength(2);
    expect(dedupe(`<div>${description}</div><div><h2>Description</h2>${description}</div>`).match(/Enduring comfort/g)).toHaveLength(2);
  });
});
