import { describe, expect, it } from 'vitest';
import { dropAuthorBios, personDescriptions } from '../../src/scrape/main-content/author-bios';
import { prunedText } from './pruned-text';

const BIO = 'Jean-Luc started CNX Software in 2010 as a part-time endeavor, before quitting his job as a software engineering manager to write full time.';
const POST =
  '<h1>Do you need 14 USB ports on your Raspberry Pi 5?</h1><p>The Suptronics X1013 adds ten USB ports to the board through its PCIe connector.</p>' +
  '<p>It is sold for about $49.5 including VAT, and for $35 under another brand name, which makes it cheaper than most USB hubs with their own power supply.</p>' +
  '<p>Whether the board needs that many ports is another matter: a keyboard, a mouse and a drive are what most people plug in.</p>';

describe('dropAuthorBios', () => {
  it("drops the box showing the JSON-LD author's description, with the author's name, and keeps the post", () => {
    const jsonLd = [{ '@type': 'BlogPosting', author: { '@type': 'Person', name: 'Jean-Luc Aufranc', description: `<p>${BIO}</p>` } }];
    const text = prunedText(`<article>${POST}<div class="box"><div class="name">Jean-Luc Aufranc</div><div class="desc"><p>${BIO}</p></div></div></article>`, (root) =>
      dropAuthorBios(root, personDescriptions(jsonLd)),
    );
    expect(text).toContain('adds ten USB ports');
    expect(text).not.toContain('part-time endeavor');
    expect(text).not.toContain('Jean-Luc Aufranc');
  });

  it('drops a microdata Person that says more than a byline, and keeps a byline', () => {
    const byline = '<p>By <span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Sarah Rudell Beach</span></span></p>';
    const box = `<section itemscope itemtype="http://schema.org/Person"><h4 itemprop="name">Sarah Rudell Beach</h4><p itemprop="description">Sarah is a writer, teacher, and mother who writes about living and parenting mindfully.</p></section>`;
    const text = prunedText(`<article>${POST}${byline}${box}</article>`, (root) => dropAuthorBios(root, []));
    expect(text).toContain('By Sarah Rudell Beach');
    expect(text).not.toContain('writer, teacher, and mother');
  });

  it("keeps a profile page's bio, which holds the page's title", () => {
    const profile = `<div itemscope itemtype="https://schema.org/Person"><h1>Jean-Luc Aufranc</h1><p>${BIO}</p></div>`;
    const text = prunedText(profile, (root) => dropAuthorBios(root, [BIO]));
    expect(text).toContain('part-time endeavor');
  });
});
