import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { eq } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { ledger, pages } from '../../src/db/schema';
import { api, fixture } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { createTeamWithKey } from '../helpers/accounts';
import { nestedDivsPage } from '../fixtures/pathological-pages';
import { docxFile } from '../helpers/docx-file';

function sdk(): Firecrawl {
  return new Firecrawl({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl') });
}

describe('POST /v2/parse through the v2 SDK: an uploaded file becomes a document', () => {
  it('parses a PDF, charges one credit, and keeps the file out of the search index', async () => {
    const pdf = Buffer.from(await (await fetch(fixture('/report.pdf'))).arrayBuffer());
    const doc = await sdk().parse({ data: pdf, filename: 'report.pdf', contentType: 'application/pdf' });
    expect(doc.markdown).toContain('Quarterly lighthouse report, page one.');
    expect(doc.markdown).toContain('Maintenance schedule on page two.');
    expect(doc.metadata).toMatchObject({ numPages: 2, contentType: 'application/pdf', creditsUsed: 1, sourceURL: 'file:///uploads/report.pdf' });

    const { db } = testDatabase();
    const [row] = await db.select({ searchable: pages.searchable, variant: pages.variant }).from(pages).where(eq(pages.id, doc.metadata!.scrapeId as string));
    expect(row).toEqual({ searchable: false, variant: `parse:${doc.metadata!.scrapeId}` });
    const charges = await db.select({ amount: ledger.amount, operation: ledger.operation }).from(ledger).where(eq(ledger.idempotencyKey, `parse:${doc.metadata!.scrapeId}`));
    expect(charges).toEqual([{ amount: -1, operation: 'parse' }]);
  });

  it('parses a DOCX (by way of HTML) and an HTML file, with the formats asked for', async () => {
    const docx = await sdk().parse({ data: docxFile('Field notes', ['The first paragraph of the notes.', 'The second & last one.']), filename: 'notes.docx' }, { formats: ['markdown', 'html'] });
    expect(docx.markdown).toContain('# Field notes');
    expect(docx.markdown).toContain('The second & last one.');
    expect(docx.html).toContain('<p>The first paragraph of the notes.</p>');

    const page = '<html><head><title>Uploaded page</title></head><body><main><h1>Uploaded</h1><p>Parsed from a file, not fetched. <a href="https://example.com/next">Next</a></p></main></body></html>';
    const html = await sdk().parse({ data: page, filename: 'page.html', contentType: 'text/html' }, { formats: ['markdown', 'links'] });
    expect(html.markdown).toContain('Parsed from a file, not fetched.');
    expect(html.links).toEqual(['https://example.com/next']);
    expect(html.metadata?.title).toBe('Uploaded page');
  });

  it('refuses what it cannot parse with our error shape', async () => {
    const err = await sdk()
      .parse({ data: Buffer.from([0x00, 0x01, 0x02]), filename: 'archive.bin', contentType: 'application/octet-stream' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SdkError);
    expect((err as SdkError).status).toBe(400);
    expect((err as SdkError).message).toContain('Cannot parse archive.bin');

    const notMultipart = await api('/v2/parse', { body: { file: 'x' } });
    expect(notMultipart.status).toBe(400);
    expect(notMultipart.body).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('multipart/form-data') });
  });

  it('answers 408 processing_continues when the file outlasts its timeout; the same file and options sent again get the document, parsed and charged once', async () => {
    const team = await createTeamWithKey(testDatabase().db, `parse-continues-${process.pid}`, 10);
    const client = new Firecrawl({ apiKey: team.key, apiUrl: inject('apiUrl') });
    // 40,000 nested elements (under the bound on a DOM's nodes): parsing them, quadratic in depth, outlasts a 1 s timeout.
    const file = { data: Buffer.from(nestedDivsPage(40_000)), filename: 'nested.html', contentType: 'text/html' };
    const first = (await client.parse(file, { timeout: 1_000 }).catch((e: unknown) => e)) as SdkError;
    expect(first).toBeInstanceOf(SdkError);
    expect(first.status).toBe(408);
    expect(first.code).toBe('SCRAPE_TIMEOUT');
    expect(first.details).toMatchObject({ state: 'processing_continues', retryAfterSeconds: expect.any(Number) });
    let doc: Awaited<ReturnType<Firecrawl['parse']>> | undefined;
    for (let i = 0; i < 20 && !doc; i++) {
      doc = await client.parse(file, { timeout: 1_000 }).catch((e: unknown) => {
        expect((e as SdkError).status).toBe(408);
        return undefined;
      });
    }
    expect(doc!.markdown).toContain('The closing sentence of the page.');
    const charges = await testDatabase().db.select().from(ledger).where(eq(ledger.teamId, team.teamId));
    expect(charges.filter((c) => c.operation === 'parse')).toHaveLength(1);
  });
});
