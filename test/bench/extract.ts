/**
 * `npm run bench extract`: the structured-data engine on a corpus of fixture pages of
 * real-world shape (test/fixtures/extract-corpus), field by field against the expected JSON:
 * precision on the fields it fills, recall on the fields the pages state, and whether its
 * confidence means something (fields above 0.8 should be right at least 95% of the time). The
 * peer is the usual shortcut: read the page's JSON-LD/microdata/RDFa and look each schema
 * property up by its exact name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as cheerio from 'cheerio';
import type { FieldNote } from '../../src/db/field-note';
import { SchemaReader, type JsonSchema, type SchemaView } from '../../src/json-schema/json-schema';
import { allEntities, type Entity } from '../../src/extract/structured/entity';
import { jsonLdEntities } from '../../src/extract/structured/json-ld';
import { microdataEntities, rdfaEntities } from '../../src/extract/structured/rdf-items';
import { extractStructured } from '../../src/extract/structured/structured-engine';

export const description = 'structured-data extraction on the extract corpus: field precision, recall and confidence calibration, against exact-name lookup in the page markup';

const CORPUS = path.join(__dirname, '..', 'fixtures', 'extract-corpus');
const HIGH = 0.8;

interface Case {
  id: string;
  category: string;
  shape: string;
  schema: JsonSchema;
  expected: Record<string, unknown>;
  html: string;
}

function loadCorpus(): Case[] {
  return readdirSync(CORPUS)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const id = f.slice(0, -'.json'.length);
      const spec = JSON.parse(readFileSync(path.join(CORPUS, f), 'utf8')) as Omit<Case, 'id' | 'html'>;
      return { id, ...spec, html: readFileSync(path.join(CORPUS, `${id}.html`), 'utf8') };
    });
}

/** Leaf fields as the notes name them: scalars and lists of scalars; lists of objects by item. */
function leaves(value: unknown, view: SchemaView, reader: SchemaReader, at: string, out: Map<string, unknown>): Map<string, unknown> {
  if (value === null || value === undefined) return out;
  if (view.kind === 'object' && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, sub] of Object.entries(view.properties)) leaves((value as Record<string, unknown>)[name], reader.view(sub), reader, at ? `${at}.${name}` : name, out);
  } else if (view.kind === 'array' && Array.isArray(value) && reader.view(view.items).kind === 'object') {
    value.forEach((item, i) => leaves(item, reader.view(view.items), reader, `${at}[${i}]`, out));
  } else if (!(Array.isArray(value) && value.length === 0)) out.set(at, value);
  return out;
}

const norm = (v: unknown): string => (typeof v === 'string' ? v.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase() : JSON.stringify(v));

function same(expected: unknown, got: unknown): boolean {
  if (typeof expected === 'number' && typeof got === 'number') return Math.abs(expected - got) < 1e-6;
  if (Array.isArray(expected) && Array.isArray(got)) {
    const a = expected.map(norm).sort();
    const b = got.map(norm).sort();
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  return norm(expected) === norm(got);
}

interface Tally {
  expected: number;
  filled: number;
  correct: number;
}
const tally = (): Tally => ({ expected: 0, filled: 0, correct: 0 });
const pct = (n: number, d: number) => (d === 0 ? '   n/a' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);

/** The peer: each property looked up by its exact name in the page's entities, JSON types only. */
async function exactNameLookup(c: Case, url: string): Promise<Record<string, unknown>> {
  const $ = cheerio.load(c.html);
  const entities = allEntities([...jsonLdEntities($), ...(await microdataEntities(c.html, url)), ...(await rdfaEntities(c.html, url))]);
  const reader = new SchemaReader(c.schema);
  const read = (entity: Entity, view: SchemaView, name: string): unknown => {
    const values = entity.props.get(name)?.map((v) => v.text).filter((t): t is string => t !== undefined) ?? [];
    if (values.length === 0) return undefined;
    if (view.kind === 'array') return values;
    if (view.kind === 'number' || view.kind === 'integer') return Number.isFinite(Number(values[0])) ? Number(values[0]) : undefined;
    if (view.kind === 'boolean') return values[0] === 'true' ? true : values[0] === 'false' ? false : undefined;
    return values[0];
  };
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(reader.view(c.schema).properties)) {
    const view = reader.view(sub);
    for (const entity of entities) {
      const value = read(entity, view, name);
      if (value !== undefined) {
        out[name] = value;
        break;
      }
    }
  }
  return out;
}

export async function run(): Promise<void> {
  const cases = loadCorpus();
  const ours = tally();
  const peer = tally();
  const byCategory = new Map<string, Tally>();
  const high = { n: 0, right: 0 };
  const low = { n: 0, right: 0 };
  const wrong: string[] = [];
  let ms = 0;

  for (const c of cases) {
    const url = `https://corpus.example/${c.id}`;
    const reader = new SchemaReader(c.schema);
    const root = reader.view(c.schema);
    const truth = leaves(c.expected, root, reader, '', new Map());
    const started = performance.now();
    const result = await extractStructured(c.html, url, c.schema);
    ms += performance.now() - started;
    const got = leaves(result.data, root, reader, '', new Map());
    const notes = new Map<string, FieldNote>(result.notes.map((n) => [n.path, n]));
    const category = byCategory.get(c.category) ?? tally();
    byCategory.set(c.category, category);
    for (const t of [ours, category]) t.expected += truth.size;
    for (const [field, value] of got) {
      const right = truth.has(field) && same(truth.get(field), value);
      const confidence = notes.get(field)?.confidence ?? 0;
      for (const t of [ours, category]) {
        t.filled++;
        if (right) t.correct++;
      }
      const bucket = confidence > HIGH ? high : low;
      bucket.n++;
      if (right) bucket.right++;
      if (!right) wrong.push(`  ${c.id} ${field}: got ${JSON.stringify(value)} (${confidence}, ${notes.get(field)?.source}), expected ${JSON.stringify(truth.get(field) ?? null)}`);
    }
    const baseline = leaves(await exactNameLookup(c, url), root, reader, '', new Map());
    peer.expected += truth.size;
    for (const [field, value] of baseline) {
      peer.filled++;
      if (truth.has(field) && same(truth.get(field), value)) peer.correct++;
    }
  }

  const counts = [...byCategory.keys()].map((k) => `${k} ${cases.filter((c) => c.category === k).length}`).join(', ');
  console.log(`corpus: ${cases.length} pages (${counts}); ${ours.expected} fields stated on the pages\n`);
  const row = (name: string, t: Tally) =>
    `${name.padEnd(24)} ${String(t.filled).padStart(6)} ${String(t.correct).padStart(8)} ${pct(t.correct, t.filled).padStart(10)} ${pct(t.correct, t.expected).padStart(8)}`;
  console.log(`${''.padEnd(24)} ${'filled'.padStart(6)} ${'correct'.padStart(8)} ${'precision'.padStart(10)} ${'recall'.padStart(8)}`);
  console.log(row('structured-data engine', ours));
  console.log(row('exact-name lookup (peer)', peer));
  const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : `${(a / b).toFixed(2)}×`);
  console.log(`ratio (engine / peer)    recall ${ratio(ours.correct / ours.expected, peer.correct / peer.expected)}, precision ${ratio(ours.correct / ours.filled, peer.correct / peer.filled)}\n`);

  console.log('by category (engine):');
  for (const [name, t] of byCategory) console.log(row(`  ${name}`, t));
  console.log(`\nconfidence calibration (engine):`);
  console.log(`  confidence > ${HIGH}: ${String(high.n).padStart(4)} fields, right ${pct(high.right, high.n)}`);
  console.log(`  confidence ≤ ${HIGH}: ${String(low.n).padStart(4)} fields, right ${pct(low.right, low.n)}`);
  console.log(`\n${cases.length} pages in ${ms.toFixed(0)} ms (${(ms / cases.length).toFixed(1)} ms a page)`);

  const precision = ours.correct / ours.filled;
  const calibrated = high.n === 0 ? 1 : high.right / high.n;
  console.log(`\ntargets: precision ≥ 95%: ${precision >= 0.95 ? 'met' : 'MISSED'} (${pct(ours.correct, ours.filled).trim()}); fields above ${HIGH} right ≥ 95%: ${calibrated >= 0.95 ? 'met' : 'MISSED'} (${pct(high.right, high.n).trim()})`);
  if (wrong.length > 0) console.log(`\nwrong fields (${wrong.length}):\n${wrong.join('\n')}`);
}
