import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledger } from '../../src/db/schema';
import { nullableSchema } from '../../src/json-schema/json-schema';
import { schemaProblems } from '../../src/json-schema/schema-validator';
import { EXTRACT_FIXTURES as F } from '../fixtures/extract-pages';
import { fixture } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { noteFor, runExtract, type ExtractStatus } from '../helpers/extract-job';

/** The result validates against the schema, with null allowed for what the page does not state. */
function expectValid(schema: Record<string, unknown>, data: unknown): void {
  expect(schemaProblems(nullableSchema(schema), data).map((p) => p.message)).toEqual([]);
}

/** Runs a one-page extract (no LLM on the shared stack: the structured-data engine alone). */
async function extractOne(path: string, schema: Record<string, unknown>): Promise<ExtractStatus> {
  const { result } = await runExtract({ urls: [fixture(path)], schema });
  expect(result.status, result.error).toBe('completed');
  expectValid(schema, result.data);
  return result;
}

async function chargesOf(jobId: string): Promise<number[]> {
  const rows = await testDatabase().db.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.jobId, jobId));
  return rows.map((r) => r.amount);
}

describe('structured-data engine: JSON-LD', () => {
  it('reads a Product with offers, with evidence for each field', async () => {
    const schema = {
      type: 'object',
      required: ['name', 'price', 'currency', 'availability'],
      properties: {
        name: { type: 'string' },
        price: { type: 'number' },
        currency: { type: 'string' },
        availability: { type: 'string', enum: ['in_stock', 'out_of_stock', 'preorder'] },
        brand: { type: 'string' },
        sku: { type: 'string' },
        rating: { type: 'number' },
        reviewCount: { type: 'integer' },
      },
    };
    const { start, result } = await runExtract({ urls: [fixture('/extract/product-jsonld')], schema });
    expect(result.status).toBe('completed');
    expectValid(schema, result.data);
    expect(result.data).toEqual({
      name: F.product.name,
      price: F.product.price,
      currency: F.product.currency,
      availability: 'in_stock',
      brand: F.product.brand,
      sku: F.product.sku,
      rating: F.product.rating,
      reviewCount: F.product.reviewCount,
    });
    // Fields come back in the schema's order.
    expect(Object.keys(result.data!)).toEqual(['name', 'price', 'currency', 'availability', 'brand', 'sku', 'rating', 'reviewCount']);
    for (const path of ['name', 'price', 'currency', 'availability', 'brand', 'sku', 'rating']) {
      const note = noteFor(result, path);
      expect(note.source).toBe('json-ld');
      expect(note.confidence).toBeGreaterThan(0.9);
    }
    expect(noteFor(result, 'price').evidence).toBe('"price": "129.95"');
    expect(noteFor(result, 'currency').evidence).toBe('"priceCurrency": "USD"');
    expect(noteFor(result, 'availability').evidence).toContain('https://schema.org/InStock');
    // "1,284" is read as a thousands separator, a little less surely than a plain number.
    expect(noteFor(result, 'reviewCount').confidence).toBeLessThan(noteFor(result, 'price').confidence);
    expect(result.creditsUsed).toBe(5);
    expect(result.tokensUsed).toBe(0);
    expect(await chargesOf(start.body.id)).toEqual([-5]);
  });

  it('reads an Article: headline as title, author and publisher names, a date, a keyword list', async () => {
    const result = await extractOne('/extract/article-jsonld', {
      type: 'object',
      properties: {
        title: { type: 'string' },
        author: { type: 'string' },
        datePublished: { type: 'string', format: 'date' },
        publisher: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        wordCount: { type: 'integer' },
      },
    });
    expect(result.data).toEqual({
      title: F.article.headline,
      author: F.article.author,
      datePublished: F.article.datePublished,
      publisher: F.article.publisher,
      tags: ['cycling', 'city council', 'infrastructure'],
      wordCount: 842,
    });
    expect(noteFor(result, 'title')).toMatchObject({ source: 'json-ld', evidence: `"headline": "${F.article.headline}"` });
    expect(noteFor(result, 'datePublished').evidence).toContain('2026-02-11T18:30:00-05:00');
  });

  it('reads a Recipe: ingredient and step lists, ISO durations as minutes, calories from text', async () => {
    const result = await extractOne('/extract/recipe-jsonld', {
      type: 'object',
      properties: {
        name: { type: 'string' },
        ingredients: { type: 'array', items: { type: 'string' } },
        steps: { type: 'array', items: { type: 'string' } },
        prepTimeMinutes: { type: 'integer' },
        cookTime: { type: 'integer', description: 'Cooking time in minutes' },
        calories: { type: 'number' },
      },
    });
    expect(result.data).toMatchObject({ name: F.recipe.name, ingredients: [...F.recipe.ingredients], prepTimeMinutes: 10, cookTime: 15, calories: 520 });
    expect(result.data!.steps).toHaveLength(3);
    expect(result.data!.steps[0]).toBe('Cook the spaghetti in salted water until al dente.');
    expect(noteFor(result, 'prepTimeMinutes')).toMatchObject({ source: 'json-ld', evidence: '"prepTime": "PT10M"' });
    expect(noteFor(result, 'ingredients').source).toBe('json-ld');
  });

  it('reads an Event: nested place and address, performers, the ticket price', async () => {
    const result = await extractOne('/extract/event-jsonld', {
      type: 'object',
      properties: {
        name: { type: 'string' },
        startDate: { type: 'string', format: 'date-time' },
        venue: { type: 'string' },
        city: { type: 'string' },
        price: { type: 'number' },
        performers: { type: 'array', items: { type: 'string' } },
        status: { type: 'string' },
      },
    });
    expect(result.data).toEqual({
      name: F.event.name,
      startDate: F.event.startDate,
      venue: F.event.venue,
      city: F.event.city,
      price: F.event.price,
      performers: [...F.event.performers],
      status: 'EventScheduled',
    });
    expect(noteFor(result, 'venue')).toMatchObject({ source: 'json-ld', evidence: `"name": "${F.event.venue}"` });
  });
});

describe('structured-data engine: other markup', () => {
  it('reads microdata', async () => {
    const result = await extractOne('/extract/product-microdata', {
      type: 'object',
      properties: {
        name: { type: 'string' },
        price: { type: 'number' },
        currency: { type: 'string' },
        inStock: { type: 'boolean' },
        brand: { type: 'string' },
        image: { type: 'string', format: 'uri' },
      },
    });
    expect(result.data).toEqual({
      name: F.microdata.name,
      price: F.microdata.price,
      currency: F.microdata.currency,
      inStock: false,
      brand: F.microdata.brand,
      image: fixture('/img/kestrel45.jpg'),
    });
    for (const note of result.notes) expect(note.source).toBe('microdata');
    expect(noteFor(result, 'price').evidence).toBe('itemprop="price" → 189.00');
  });

  it('reads RDFa', async () => {
    const result = await extractOne('/extract/event-rdfa', {
      type: 'object',
      properties: { name: { type: 'string' }, start: { type: 'string', format: 'date-time' }, venue: { type: 'string' }, city: { type: 'string' } },
    });
    expect(result.data).toEqual({ name: 'Riverside Poetry Evening', start: '2026-09-03T19:00:00+01:00', venue: 'Old Boathouse', city: 'Oxford' });
    expect(noteFor(result, 'venue').source).toBe('rdfa');
  });

  it('reads a page that has only OpenGraph tags', async () => {
    const result = await extractOne('/extract/og-only', {
      type: 'object',
      properties: {
        title: { type: 'string' },
        description: { type: 'string' },
        image: { type: 'string', format: 'uri' },
        siteName: { type: 'string' },
        author: { type: 'string' },
      },
    });
    expect(result.data).toEqual({ title: F.og.title, description: F.og.description, image: fixture(F.og.image), siteName: F.og.siteName });
    expect(noteFor(result, 'title')).toMatchObject({ source: 'opengraph', evidence: expect.stringContaining('og:title') });
    expect(noteFor(result, 'image').evidence).toContain('og:image');
    // No author anywhere: left out (it is optional), and the note says so.
    expect(noteFor(result, 'author')).toMatchObject({ source: 'none', confidence: 0, evidence: null });
  });

  it('reads a spec table and a definition list, coercing numbers, yes/no and dates', async () => {
    const result = await extractOne('/extract/spec-table', {
      type: 'object',
      properties: {
        weight: { type: 'string' },
        batteryLife: { type: 'integer' },
        screenSize: { type: 'string' },
        price: { type: 'number' },
        inStock: { type: 'boolean' },
        releaseDate: { type: 'string', format: 'date' },
      },
    });
    expect(result.data).toEqual({ ...F.table });
    expect(noteFor(result, 'weight')).toMatchObject({ source: 'table', evidence: 'Weight | 1.38 kg' });
    expect(noteFor(result, 'price')).toMatchObject({ source: 'table', evidence: 'Price | 1.299,00 €' });
    expect(noteFor(result, 'releaseDate')).toMatchObject({ source: 'definition-list', evidence: 'Release date: March 5, 2026' });
  });

  it('follows x-selector hints', async () => {
    const result = await extractOne('/extract/selector', {
      type: 'object',
      properties: {
        price: { type: 'number', 'x-selector': '.price-now' },
        tags: { type: 'array', items: { type: 'string' }, 'x-selector': 'ul.tags li' },
      },
    });
    expect(result.data).toEqual({ price: 21.5, tags: ['kitchen', 'ceramics', 'gifts'] });
    expect(noteFor(result, 'price')).toMatchObject({ source: 'selector', evidence: '<span class="price-now">$21.50</span>' });
  });
});

describe('structured-data engine: honest nulls', () => {
  it('gives null with a zero-confidence note for what a page does not state, never a guess', async () => {
    const result = await extractOne('/extract/plain', {
      type: 'object',
      required: ['price', 'author'],
      properties: { title: { type: 'string' }, price: { type: 'number' }, author: { type: 'string' }, publishedAt: { type: 'string', format: 'date' } },
    });
    // Only the <title> says anything, and a page title is read with low confidence.
    expect(result.data).toEqual({ title: F.plain.heading, price: null, author: null });
    expect(noteFor(result, 'title')).toMatchObject({ source: 'meta' });
    expect(noteFor(result, 'title').confidence).toBeLessThan(0.8);
    for (const path of ['price', 'author', 'publishedAt']) {
      expect(noteFor(result, path)).toMatchObject({ confidence: 0, source: 'none', evidence: null, message: 'Not found on the page' });
    }
  });

  it('leaves a field the markup lacks null on an otherwise rich page', async () => {
    const result = await extractOne('/extract/product-jsonld', {
      type: 'object',
      required: ['name', 'color'],
      properties: { name: { type: 'string' }, color: { type: 'string' }, material: { type: 'string' } },
    });
    expect(result.data).toEqual({ name: F.product.name, color: null });
    expect(noteFor(result, 'color')).toMatchObject({ confidence: 0, source: 'none' });
    expect(noteFor(result, 'material')).toMatchObject({ confidence: 0, source: 'none' });
  });

  it('drops an enum value it cannot match instead of forcing one', async () => {
    const result = await extractOne('/extract/product-microdata', {
      type: 'object',
      required: ['availability'],
      properties: { availability: { type: 'string', enum: ['available', 'backorder'] } },
    });
    expect(result.data).toEqual({ availability: null });
    expect(noteFor(result, 'availability')).toMatchObject({ confidence: 0, source: 'none' });
    expect(noteFor(result, 'availability').message).toContain('matches none of');
  });
});
