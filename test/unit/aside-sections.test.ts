import { describe, expect, it } from 'vitest';
import { dropAsideSections } from '../../src/scrape/main-content/aside-sections';
import { prunedText } from './pruned-text';

const ASIDES = /^(?:customer )?reviews?\b|^(?:you may also|frequently purchased|recently viewed|more like this|more from|shipping(?:,? (?:&|and) |, )returns?\b)|^(?:related|recommended)\b|^q ?& ?a\b/i;
const text = (body: string) => prunedText(body, (root) => dropAsideSections(root, ASIDES, 10_000));

describe('dropAsideSections', () => {
  it('drops a section a heading opens, up to the next heading of its rank', () => {
    const out = text('<h1>Oak Shelf</h1><p>Solid oak.</p><h2>Customer reviews</h2><p>Sturdy, would buy again.</p><h2>Details</h2><p>77 cm wide.</p>');
    expect(out).toContain('Solid oak.');
    expect(out).toContain('77 cm wide.');
    expect(out).not.toContain('Sturdy');
  });

  it('drops the block a title line opens: a styled paragraph, an accordion label after its icon', () => {
    const out = text(
      '<h1>Summit 24 Fire Pit</h1><p>Our most advanced smokeless fire pit.</p>' +
        '<div class="recs"><p class="recommendations-title">Recently Viewed</p><div><a href="/p/1">Bonfire 2.0</a> <span>€299</span></div></div>' +
        '<div class="accordion-item"><svg></svg><span>Shipping, Returns &amp; Warranty</span><div><p>We offer free standard shipping on orders over 125 EUR.</p></div></div>' +
        '<div class="accordion-item"><span>Specifications</span><div><p>Weight 10 kg</p></div></div>',
    );
    expect(out).toContain('smokeless fire pit');
    expect(out).toContain('Weight 10 kg');
    for (const gone of ['Recently Viewed', 'Bonfire', 'Shipping, Returns', 'free standard shipping']) expect(out).not.toContain(gone);
  });

  it("keeps a list's entry, a field's label and a link that start like a title", () => {
    const out = text(
      '<h1>Monday Meditation</h1><ul><li><p>Q&amp;A time included in each class</p></li><li><p>Monthly discussions</p></li></ul>' +
        '<div class="sys-req"><strong>Recommended:</strong><ul><li>8 GB RAM</li></ul></div>' +
        '<div class="price-package"><a href="/cat/kallax">More from the KALLAX series</a><p>KALLAX Shelf unit, $79.99</p></div>',
    );
    for (const kept of ['Q&A time included', 'Recommended:', '8 GB RAM', 'More from the KALLAX series', 'Shelf unit, $79.99']) expect(out).toContain(kept);
  });
});
