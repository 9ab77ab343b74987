import { describe, expect, it } from 'vitest';
import { dropPublicationTeasers } from '../../src/scrape/main-content/publication-teasers';
import { prunedText } from './pruned-text';

const text = (body: string) => prunedText(body, dropPublicationTeasers);

describe('dropPublicationTeasers', () => {
  it("drops a landing page's shelf of cards that lead to its posts, whitepapers and case studies", () => {
    const out = text(
      '<h1>Cloud Security Consulting</h1><p>We secure your cloud from design to operations.</p>' +
        '<div class="services"><div class="card"><h3>Cloud Security</h3><p>We assess your cloud.</p><a href="/cloud">Learn more</a></div>' +
        '<div class="card"><h3>Data Protection</h3><p>We protect sensitive data.</p><a href="/data">Learn more</a></div></div>' +
        '<h2>Featured insights</h2><div class="slider">' +
        '<div class="slide"><a href="/insights/ciso-outlook"><p>Survey</p><p>2026 CISO outlook</p></a></div>' +
        '<div class="slide"><a href="/blog/ai-security"><p>Blog</p><p>Pragmatic AI security</p><p>7 min read</p></a></div>' +
        '<div class="slide"><article><a href="/insights/audit">Audit requirements explained</a><p>Written by Jane Doe on August 7, 2025</p></article></div></div>',
    );
    for (const kept of ['Cloud Security Consulting', 'We assess your cloud.', 'Data Protection', 'We protect sensitive data.']) expect(out).toContain(kept);
    for (const gone of ['CISO outlook', 'Pragmatic AI security', 'Audit requirements', 'Jane Doe']) expect(out).not.toContain(gone);
  });

  it('keeps a single dated link and cards without a publication mark', () => {
    const out = text(
      '<p>Read our <a href="/blog/launch">launch post</a>.</p><div><div class="event"><a href="/blog/launch">Launch recap</a><p>March 3, 2025</p></div><p>Our team answers within a day.</p></div>' +
        '<ul><li><a href="/plans/pro">Pro plan</a><p>For growing teams.</p></li><li><a href="/plans/team">Team plan</a><p>For companies.</p></li></ul>',
    );
    for (const kept of ['launch post', 'Launch recap', 'March 3, 2025', 'Pro plan', 'Team plan']) expect(out).toContain(kept);
  });
});
