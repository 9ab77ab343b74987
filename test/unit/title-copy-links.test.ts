import { describe, expect, it } from 'vitest';
import { dropTitleCopyLinks } from '../../src/scrape/main-content/title-copy-links';
import { prunedText } from './pruned-text';

const card = (id: number, title: string, price: string, label = title) =>
  `<li><div class="tile"><a class="absolute" href="/ip/${id}"><span class="sr">${label}</span></a>` +
  `<div><img src="/${id}.jpg" alt=""></div><div><span class="sr">current price ${price}</span></div>` +
  `<h3>${title}</h3><span>4.5 out of 5 Stars. 12 reviews</span></div></li>`;

describe('dropTitleCopyLinks', () => {
  it("says each card's title once: the overlay link's screen-reader label goes, the title stays", () => {
    const text = prunedText(
      `<ul>${card(1, 'Echelon Row-S Indoor Rowing Machine', '$449.00')}${card(2, 'Instant Vortex 6-Quart Air Fryer', '$169.99', 'Instant Vortex 6-Quart Air Fryer $169.99')}</ul>`,
      dropTitleCopyLinks,
    );
    expect(text.match(/Echelon Row-S Indoor Rowing Machine/g)).toHaveLength(1);
    expect(text.match(/Instant Vortex 6-Quart Air Fryer/g)).toHaveLength(1);
    expect(text).toContain('current price $169.99');
  });

  it('keeps a title link that shows its own words, and a label with words the card does not say', () => {
    const text = prunedText(
      '<div><a href="/a">Echelon Row-S Indoor Rowing Machine</a><h3>Echelon Row-S Indoor Rowing Machine</h3></div>' +
        '<div><a href="/b"><span class="sr">Marcy Home Gym, free delivery</span></a><h3>Marcy Home Gym</h3></div>',
      dropTitleCopyLinks,
    );
    expect(text.match(/Echelon Row-S Indoor Rowing Machine/g)).toHaveLength(2);
    expect(text).toContain('Marcy Home Gym, free delivery');
  });
});
