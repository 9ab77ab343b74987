import { afterAll, describe, expect, it } from 'vitest';
import { processBody } from '../../src/scrape/process/process-body';
import { ProcessingPool } from '../../src/scrape/process/processing-pool';

const options = { formats: ['markdown', 'html'] as const, onlyMainContent: false, removeBase64Images: true };
const page = Buffer.from(
  '<html lang="en"><head><title>Lamps</title><meta name="description" content="About lamps"></head>' +
    '<body><nav><a href="/home">Home</a></nav><h1>Lamps</h1><p>Oil <b>and</b> glass. <a href="lens#top">Lens</a></p></body></html>',
);

describe('ProcessingPool', () => {
  const pool = new ProcessingPool(2);
  afterAll(() => pool.close());

  it('gives, from its threads, what processBody gives inline', async () => {
    const threaded = await pool.process(page, 'text/html', 'https://example.com/docs/', options);
    const inline = await processBody(page, 'text/html', 'https://example.com/docs/', options);
    const { timing: _t, ...content } = threaded;
    const { timing: _i, ...expected } = inline;
    expect(content).toEqual(expected);
    expect(content.markdown).toContain('# Lamps');
    expect(content.links).toEqual(['https://example.com/home', 'https://example.com/docs/lens#top']);
    expect(content.metadata).toMatchObject({ title: 'Lamps', description: 'About lamps', language: 'en' });
  });

  it('processes many bodies at once, each into its own result', async () => {
    const bodies = Array.from({ length: 20 }, (_, i) => Buffer.from(`<html><body><h1>Page ${i}</h1></body></html>`));
    const results = await Promise.all(bodies.map((b) => pool.process(b, 'text/html; charset=utf-8', 'https://example.com/', options)));
    expect(results.map((r) => r.markdown)).toEqual(bodies.map((_, i) => `# Page ${i}`));
  });
});
