import { describe, expect, it } from 'vitest';
import { dropAffiliateDisclosures } from '../../src/scrape/main-content/affiliate-disclosures';
import { prunedText } from './pruned-text';

const ADVICE = 'Even in safe countries things can go wrong, from an unexpected illness to a cancelled flight, and a hospital bill abroad can be large. ';

describe('dropAffiliateDisclosures', () => {
  it("drops a publisher's affiliate notices, keeps the article", () => {
    const text = prunedText(
      '<p><em>Disclosure: This post contains affiliate links. If you use them to make a purchase, we may earn a small commission — at no extra cost to you.</em></p>' +
        '<p>Steam Ritual is a sauna blog.</p><div class="note">If you buy something from a Verge link, Vox Media may earn a commission. See our ethics statement.</div>',
      dropAffiliateDisclosures,
    );
    expect(text).toBe('Steam Ritual is a sauna blog.');
  });

  it('keeps a paragraph that mentions a commission in passing, or discusses affiliate marketing', () => {
    const passing = `<p>${ADVICE.repeat(2)}We recommend SafetyWing <span>(we earn a small affiliate commission if you buy through our links)</span>. ${ADVICE}</p>`;
    const essay = `<p>${'Affiliate programs pay a commission to the site that sent the buyer, which shapes what reviews recommend. '.repeat(5)}</p>`;
    const text = prunedText(passing + essay, dropAffiliateDisclosures);
    expect(text).toContain('(we earn a small affiliate commission');
    expect(text).toContain('Affiliate programs pay');
  });
});
