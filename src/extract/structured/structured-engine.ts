import type { Cheerio } from 'cheerio';
import type { Element } from 'domhandler';
import { coerceText, type Coerced } from '../coerce';
import { conformToSchema } from '../conform';
import type { FieldNote } from '../../db/field-note';
import { roundConfidence, snippet, type ExtractionResult } from '../extraction-result';
import { childPath } from '../field-path';
import { nameWords, normalizeName, SchemaReader, type JsonSchema, type SchemaKind, type SchemaView } from '../../json-schema/json-schema';
import { allEntities, type Entity, type EntityValue } from './entity';
import { readPageSources, type PageSources } from './page-sources';
import type { LabeledValue } from './tables';
import { conceptFor, FURNITURE_TYPES, normalizeLabel, typeFitsName, type ConceptMatch } from './vocabulary';

/** How much a value is trusted for where it was found, before matching and coercion. */
const SOURCE_CONFIDENCE: Record<string, number> = {
  'json-ld': 0.95,
  microdata: 0.95,
  rdfa: 0.92,
  selector: 0.92,
  opengraph: 0.88,
  twitter: 0.85,
  meta: 0.82,
  table: 0.88,
  'definition-list': 0.88,
};
/** `<title>` usually carries the site's name too. */
const TITLE_TAG_FACTOR = 0.8;
const MAX_DEPTH = 6;
/** Properties that point at what a page is about, rather than at a part of something. */
const SUBJECT_LINKS = new Set(['mainEntity', 'mainEntityOfPage', 'about', 'item', 'itemListElement', 'hasPart']);

/** Values found for one property in one place. */
interface Found {
  values: EntityValue[];
  source: string;
  confidence: number;
  /** Where exactly, for the note: `offers.price of Product`. */
  how: string;
}

interface Context {
  /** The entity this object is read from. */
  entity?: Entity;
  /** The page's main object: meta tags and tables may fill it too. */
  pageLevel: boolean;
  /** Element `x-selector`s are relative to; the whole document when absent. */
  scope?: Cheerio<Element>;
  path: string;
  depth: number;
}

const typeName = (e: Entity) => e.types[0] ?? 'item';

function resolvePath(entity: Entity, path: string): EntityValue[] {
  let current: EntityValue[] = [{ entity, evidence: '' }];
  for (const segment of path.split('.')) current = current.flatMap((v) => v.entity?.props.get(segment) ?? []);
  return current;
}

/** Text for a scalar property from an entity-valued property: a Person's name, a QuantitativeValue's value, an address joined. */
function entityText(entity: Entity, kind: SchemaKind, depth = 0): string | undefined {
  const first = (key: string) => entity.props.get(key)?.find((v) => v.text !== undefined || v.entity);
  const address = ['streetAddress', 'addressLocality', 'addressRegion', 'postalCode', 'addressCountry'];
  if (kind === 'string' && !entity.props.has('name') && address.some((k) => entity.props.has(k))) {
    return address
      .map((k) => first(k))
      .map((v) => (v?.entity ? entityText(v.entity, 'string', depth + 1) : v?.text))
      .filter(Boolean)
      .join(', ');
  }
  const keys = kind === 'number' || kind === 'integer' ? ['value', 'price', 'ratingValue', 'minValue', 'amount', 'name'] : ['name', 'headline', 'title', 'text', 'value', 'url', 'contentUrl', 'caption'];
  for (const key of keys) {
    const v = first(key);
    if (v?.text !== undefined) return v.text;
    if (v?.entity && depth < 2) {
      const inner = entityText(v.entity, kind, depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** Splits `a, b, c` (or lines, or `;`/`|` lists) into items when they read as a list of short values. */
function splitList(text: string): string[] {
  for (const sep of [/\n+/, /\s*[;|]\s*/, /\s*,\s*/]) {
    const parts = text.split(sep).map((p) => p.trim()).filter(Boolean);
    if (parts.length >= 2 && parts.every((p) => p.length <= 60)) return parts;
  }
  return [text];
}

/** Titles of site sections rather than of a thing: `About | Acme` names the page, not Acme. */
const SECTION_TITLES = new Set(['about', 'aboutus', 'contact', 'contactus', 'home', 'homepage', 'blog', 'news', 'company', 'team', 'ourteam', 'careers', 'jobs', 'welcome', 'index', 'shop', 'products']);

/** A page title without the site name: `Trail Shoe | Acme Outdoors` → `Trail Shoe`; undefined for a section title. */
function cleanTitle(title: string, siteName: string | undefined): { text: string; factor: number } | undefined {
  const parts = title.split(/\s+[|–—·:-]{1,2}\s+/).map((p) => p.trim()).filter(Boolean);
  const site = siteName?.toLowerCase();
  const kept = parts.length < 2 ? parts : site ? parts.filter((p) => p.toLowerCase() !== site) : parts.slice(0, -1);
  const text = kept.join(' - ');
  if (!text || SECTION_TITLES.has(normalizeName(text))) return undefined;
  if (parts.length < 2) return { text, factor: 1 };
  if (kept.length === parts.length) return { text: title, factor: 0.9 };
  return { text, factor: site && kept.length === parts.length - 1 ? 0.95 : 0.85 };
}

/** A site-wide entity (the site's own Organization) on a page about something else. */
const SITE_ENTITY_FACTOR = 0.8;
/** A title that the page's main heading does not bear out (often written for search engines). */
const UNCONFIRMED_TITLE_FACTOR = 0.8;

class StructuredExtraction {
  private readonly notes: FieldNote[] = [];
  private readonly reader: SchemaReader;
  private readonly heading: string;
  private readonly siteName: string | undefined;
  /** Entities describing the site rather than the page's subject; what they say is trusted less. */
  private readonly demoted = new Set<Entity>();

  constructor(
    private readonly page: PageSources,
    schema: JsonSchema,
  ) {
    this.reader = new SchemaReader(schema);
    this.heading = page.$('h1').first().text().replace(/\s+/g, ' ').trim();
    const title = page.meta.find((m) => m.key === 'title')?.value;
    this.siteName = page.meta.find((m) => m.key === 'og:site_name')?.value ?? (title && /\s[|–—-]\s/.test(title) ? title.split(/\s[|–—-]\s/).pop()?.trim() : undefined);
  }

  /** Whether the page's main heading names something else than `name` (a section title such as "Contact us" names nothing). */
  private headingNamesOther(name: string): boolean {
    const heading = normalizeName(this.heading);
    const n = normalizeName(name);
    return !!heading && !!n && !SECTION_TITLES.has(heading) && !heading.includes(n) && !n.includes(heading);
  }

  run(): ExtractionResult {
    const root = this.reader.view(this.reader.root);
    const entity = this.chooseMainEntity(root);
    const name = entity && entityText(entity, 'string');
    if (entity && name && this.siteName && normalizeName(name) === normalizeName(this.siteName) && this.headingNamesOther(name)) {
      for (const e of allEntities([entity])) this.demoted.add(e);
    }
    const data = this.fillObject(root, { ...(entity && { entity }), pageLevel: true, path: '', depth: 0 }, this.notes) ?? {};
    return { data, notes: this.notes, llmTokens: 0 };
  }

  /**
   * The entity the page is about, for this schema: the one that fills most properties, with a
   * nudge towards the type the schema's title names and away from site furniture (WebSite,
   * BreadcrumbList). None when no entity fills anything.
   */
  private chooseMainEntity(root: SchemaView): Entity | undefined {
    const hint = [root.title, root.description].filter((t): t is string => !!t);
    const entities = allEntities(this.page.entities);
    // Entities another one points at (a seller, a publisher) are parts, not the subject.
    const referenced = new Set(
      entities.flatMap((e) => [...e.props].filter(([key]) => !SUBJECT_LINKS.has(key)).flatMap(([, values]) => values.flatMap((v) => (v.entity ? [v.entity] : [])))),
    );
    const headings = [this.heading, this.page.meta.find((m) => m.key === 'og:title')?.value ?? ''].map((h) => normalizeName(h)).filter(Boolean);
    let best: { entity: Entity; score: number } | undefined;
    for (const entity of entities) {
      let score = 0;
      for (const [name, sub] of Object.entries(root.properties)) {
        const view = this.reader.view(sub);
        if (this.fromEntity(entity, name, view, this.concept(name, view))) score += 1;
      }
      if (score === 0) continue;
      if (hint.some((h) => nameWords(h).some((w) => typeFitsName(entity.types, w)))) score += 0.5;
      if (entity.types.some((t) => FURNITURE_TYPES.has(t.toLowerCase()))) score -= 0.75;
      if (referenced.has(entity)) score -= 0.25;
      const title = normalizeName(entityText(entity, 'string') ?? '');
      if (title && headings.some((h) => h.includes(title))) score += 0.5;
      if (!best || score > best.score) best = { entity, score };
    }
    return best && best.score > 0 ? best.entity : undefined;
  }

  private concept(name: string, view: SchemaView): ConceptMatch | undefined {
    const itemKind = view.kind === 'array' ? this.reader.view(view.items).kind : undefined;
    return conceptFor(name, view.kind, itemKind, [view.title, view.description].filter((t): t is string => !!t));
  }

  private fillObject(view: SchemaView, ctx: Context, notes: FieldNote[]): Record<string, unknown> | undefined {
    if (ctx.depth > MAX_DEPTH) return undefined;
    const out: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(view.properties)) {
      const child = this.reader.view(sub);
      const path = childPath(ctx.path, name);
      const value = this.fillProperty(name, child, { ...ctx, path }, notes);
      if (value !== undefined) out[name] = value;
      else if (view.required.includes(name)) out[name] = null;
    }
    return out;
  }

  private fillProperty(name: string, view: SchemaView, ctx: Context, notes: FieldNote[]): unknown {
    if (view.kind === 'object') return this.fillNestedObject(name, view, ctx, notes);
    if (view.kind === 'array') return this.fillArray(name, view, ctx, notes);
    return this.fillScalar(name, view, ctx, notes);
  }

  // ---- where values are found -------------------------------------------------------------

  /** A property of an entity: by its own name, through the concept's schema.org paths, or nested deeper under its name. */
  private fromEntity(entity: Entity, name: string, view: SchemaView, concept: ConceptMatch | undefined): Found | undefined {
    const base = SOURCE_CONFIDENCE[entity.source]! * (this.demoted.has(entity) ? SITE_ENTITY_FACTOR : 1);
    const wanted = normalizeName(name);
    for (const [key, values] of entity.props) {
      if (normalizeName(key) === wanted && values.length > 0) return { values, source: entity.source, confidence: base, how: `${key} of ${typeName(entity)}` };
    }
    const paths = concept?.concept.paths ?? [];
    for (const [i, path] of paths.entries()) {
      const values = resolvePath(entity, path);
      if (values.length > 0) return { values, source: entity.source, confidence: base * concept!.strength * (i === 0 ? 1 : 0.97), how: `${path} of ${typeName(entity)}` };
    }
    if (view.kind !== 'object') {
      for (const nested of allEntities([entity]).slice(1, 40)) {
        for (const [key, values] of nested.props) {
          if (normalizeName(key) === wanted && values.length > 0) return { values, source: entity.source, confidence: base * 0.9, how: `${key} of ${typeName(nested)} in ${typeName(entity)}` };
        }
      }
    }
    return undefined;
  }

  private fromMeta(name: string, concept: ConceptMatch | undefined): Found | undefined {
    const keys = [...(concept?.concept.meta ?? []), name.toLowerCase()];
    const declaredSite = this.page.meta.find((m) => m.key === 'og:site_name')?.value;
    for (const key of keys) {
      const entries = this.page.meta.filter((m) => m.key === key);
      const first = entries[0];
      if (!first) continue;
      let factor = (concept?.strength ?? 1) * (key === 'title' ? TITLE_TAG_FACTOR : 1);
      let values = entries.map((m) => ({ text: m.value, evidence: m.evidence }));
      if (/(^|:)title$/.test(key)) {
        const cleaned = cleanTitle(first.value, declaredSite);
        if (!cleaned) continue;
        factor *= cleaned.factor * (this.headingNamesOther(cleaned.text) ? UNCONFIRMED_TITLE_FACTOR : 1);
        values = [{ text: cleaned.text, evidence: first.evidence }];
      }
      return { values, source: first.source, confidence: SOURCE_CONFIDENCE[first.source]! * factor, how: `<meta> ${key}` };
    }
    return undefined;
  }

  /** A spec-table row or definition-list entry whose label is the property's name, a synonym, or its description. */
  private fromPairs(name: string, view: SchemaView, concept: ConceptMatch | undefined, asList: boolean): Found | undefined {
    const wanted = normalizeName(name);
    const labels = new Set([...(concept?.concept.labels ?? []), ...(concept?.concept.names ?? [])]);
    const described = view.title ? normalizeLabel(view.title) : undefined;
    let best: { pair: LabeledValue; strength: number } | undefined;
    for (const pair of this.page.pairs) {
      const label = normalizeLabel(pair.label);
      const strength = label === wanted || label === described ? 1 : labels.has(label) ? 0.95 * (concept?.strength ?? 1) : 0;
      if (strength > (best?.strength ?? 0)) best = { pair, strength };
    }
    if (!best) return undefined;
    const { pair } = best;
    const texts = asList ? (pair.items ?? splitList(pair.value)) : [pair.value];
    return {
      values: texts.map((text) => ({ text, evidence: pair.evidence })),
      source: pair.source,
      confidence: SOURCE_CONFIDENCE[pair.source]! * best.strength,
      how: `${pair.source === 'table' ? 'table row' : 'definition'} "${pair.label}"`,
    };
  }

  /** Elements an `x-selector` picks, within the current scope. */
  private selected(view: SchemaView, ctx: Context): Cheerio<Element> | undefined {
    if (!view.selector) return undefined;
    try {
      return (ctx.scope ? ctx.scope.find(view.selector) : this.page.$(view.selector)).filter((_, el) => el.type === 'tag') as Cheerio<Element>;
    } catch {
      return undefined;
    }
  }

  private fromSelector(name: string, view: SchemaView, ctx: Context, asList: boolean): Found | undefined {
    const $ = this.page.$;
    const matched = this.selected(view, ctx);
    if (!matched || matched.length === 0) return undefined;
    const wantsLink = view.format === 'uri' || view.format === 'url' || nameWords(name).some((w) => ['url', 'link', 'href', 'image', 'img', 'photo', 'logo'].includes(w));
    const valueOf = (el: Element): string => {
      const a = el.attribs;
      if (a.content) return a.content;
      if (el.tagName === 'time' && a.datetime) return a.datetime;
      if (wantsLink && (a.href || a.src)) return (a.href || a.src)!;
      if (a.value && (el.tagName === 'data' || el.tagName === 'input')) return a.value;
      return $(el).text();
    };
    const elements = asList ? matched.toArray() : [matched.toArray()[0]!];
    return {
      values: elements.map((el) => ({ text: valueOf(el), evidence: snippet($.html(el)) })).filter((v) => v.text.trim()),
      source: 'selector',
      confidence: SOURCE_CONFIDENCE.selector!,
      how: `x-selector ${view.selector}`,
    };
  }

  /** For a property that names a type (`company`, `venue`), the name of such an entity elsewhere on the page. */
  private fromTypedEntity(name: string, ctx: Context): Found | undefined {
    const match = allEntities(this.page.entities).find((e) => e !== ctx.entity && typeFitsName(e.types, name));
    if (!match) return undefined;
    return { values: [{ entity: match, evidence: `${typeName(match)} (${match.source})` }], source: match.source, confidence: SOURCE_CONFIDENCE[match.source]! * 0.85, how: `the page's ${typeName(match)}` };
  }

  private candidates(name: string, view: SchemaView, ctx: Context, asList: boolean): Found[] {
    const concept = this.concept(name, view);
    const found: (Found | undefined)[] = [this.fromSelector(name, view, ctx, asList)];
    if (ctx.entity) found.push(this.fromEntity(ctx.entity, name, view, concept));
    if (ctx.pageLevel) found.push(this.fromMeta(name, concept), this.fromPairs(name, view, concept, asList), this.fromTypedEntity(name, ctx));
    return found.filter((f): f is Found => !!f && f.values.length > 0);
  }

  // ---- filling ----------------------------------------------------------------------------

  private textsOf(values: EntityValue[], kind: SchemaKind): { text: string; evidence: string }[] {
    return values
      .map((v) => ({ text: v.entity ? entityText(v.entity, kind) : v.text, evidence: v.evidence }))
      .filter((v): v is { text: string; evidence: string } => v.text !== undefined && v.text.trim() !== '');
  }

  private fillScalar(name: string, view: SchemaView, ctx: Context, notes: FieldNote[]): unknown {
    let best: { value: unknown; confidence: number; found: Found; evidence: string; message?: string } | undefined;
    let failure: string | undefined;
    for (const found of this.candidates(name, view, ctx, false)) {
      const texts = this.textsOf(found.values, view.kind);
      const coerced = texts.map((t) => ({ t, c: coerceText(t.text, view, name, this.page.url) }));
      const good = coerced.filter((x): x is { t: (typeof texts)[number]; c: Extract<Coerced, { ok: true }> } => x.c.ok);
      if (good.length === 0) {
        const bad = coerced[0]?.c;
        failure ??= bad && !bad.ok ? `${found.how}: ${bad.message}` : undefined;
        continue;
      }
      const first = good[0]!;
      const distinct = new Set(good.map((g) => JSON.stringify(g.c.value))).size;
      const confidence = found.confidence * first.c.factor * (distinct > 1 ? 0.75 : 1);
      if (!best || confidence > best.confidence) {
        const message = [found.how, first.c.message, distinct > 1 ? `${distinct} different values on the page; the first was taken` : undefined].filter(Boolean).join('; ');
        best = { value: first.c.value, confidence, found, evidence: first.t.evidence, message };
      }
    }
    if (!best) {
      notes.push({ path: ctx.path, confidence: 0, source: 'none', evidence: null, message: failure ?? 'Not found on the page' });
      return undefined;
    }
    notes.push({ path: ctx.path, confidence: roundConfidence(best.confidence), source: best.found.source, evidence: best.evidence, ...(best.message && { message: best.message }) });
    return best.value;
  }

  private fillNestedObject(name: string, view: SchemaView, ctx: Context, notes: FieldNote[]): unknown {
    const attempt = (next: Context): Record<string, unknown> | undefined => {
      const trial: FieldNote[] = [];
      const value = this.fillObject(view, next, trial);
      if (!value || !trial.some((n) => n.source !== 'none')) return undefined;
      notes.push(...trial);
      return value;
    };
    const base = { path: ctx.path, depth: ctx.depth + 1 };
    const scope = this.selected(view, ctx);
    if (scope && scope.length > 0) {
      const filled = attempt({ ...base, pageLevel: false, scope: scope.first() });
      if (filled) return filled;
    }
    const found = ctx.entity ? this.fromEntity(ctx.entity, name, view, this.concept(name, view)) : undefined;
    for (const v of found?.values ?? []) {
      if (v.entity) {
        const filled = attempt({ ...base, entity: v.entity, pageLevel: false });
        if (filled) return filled;
      } else if (v.text && 'name' in view.properties) {
        const filled = attempt({ ...base, entity: { source: ctx.entity!.source, types: [], props: new Map([['name', [v]]]) }, pageLevel: false });
        if (filled) return filled;
      }
    }
    if (ctx.pageLevel) {
      const typed = allEntities(this.page.entities).find((e) => e !== ctx.entity && typeFitsName(e.types, name));
      if (typed) {
        const filled = attempt({ ...base, entity: typed, pageLevel: false });
        if (filled) return filled;
      }
    }
    // A wrapper object (`{product: {name, price}}`) reads from the same place as its parent.
    const flat = attempt({ ...ctx, depth: ctx.depth + 1 });
    if (flat) return flat;
    notes.push({ path: ctx.path, confidence: 0, source: 'none', evidence: null, message: 'Not found on the page' });
    return undefined;
  }

  private fillArray(name: string, view: SchemaView, ctx: Context, notes: FieldNote[]): unknown {
    const items = this.reader.view(view.items);
    const filled = items.kind === 'object' ? this.objectItems(name, view, items, ctx, notes) : this.scalarItems(name, view, items, ctx, notes);
    if (filled === undefined) notes.push({ path: ctx.path, confidence: 0, source: 'none', evidence: null, message: 'Not found on the page' });
    return filled;
  }

  private scalarItems(name: string, view: SchemaView, items: SchemaView, ctx: Context, notes: FieldNote[]): unknown[] | undefined {
    for (const found of this.candidates(name, view, ctx, true)) {
      let texts = this.textsOf(found.values, items.kind);
      if (texts.length === 1) texts = splitList(texts[0]!.text).map((text) => ({ text, evidence: texts[0]!.evidence }));
      const coerced = texts.map((t) => coerceText(t.text, items, name, this.page.url));
      const good = coerced.filter((c): c is Extract<Coerced, { ok: true }> => c.ok);
      if (good.length === 0) continue;
      const values = [...new Map(good.map((c) => [JSON.stringify(c.value), c.value])).values()];
      const factor = Math.min(...good.map((c) => c.factor)) * (good.length < coerced.length ? 0.8 : 1);
      const evidence = snippet([...new Set(texts.map((t) => t.evidence))].join(' '));
      const dropped = coerced.length - good.length;
      notes.push({
        path: ctx.path,
        confidence: roundConfidence(found.confidence * factor),
        source: found.source,
        evidence,
        message: `${values.length} item(s) from ${found.how}${dropped ? `; ${dropped} could not be read as ${items.kind}` : ''}`,
      });
      return values;
    }
    return undefined;
  }

  private objectItems(name: string, view: SchemaView, items: SchemaView, ctx: Context, notes: FieldNote[]): unknown[] | undefined {
    const collect = (contexts: Context[], source: string, how: string, evidence: string): unknown[] | undefined => {
      const trial: FieldNote[] = [];
      const out: unknown[] = [];
      for (const c of contexts) {
        const itemNotes: FieldNote[] = [];
        const value = this.fillObject(items, { ...c, path: `${ctx.path}[${out.length}]`, depth: ctx.depth + 1 }, itemNotes);
        if (value && itemNotes.some((n) => n.source !== 'none')) {
          out.push(value);
          trial.push(...itemNotes);
        }
      }
      if (out.length === 0) return undefined;
      const filledNotes = trial.filter((n) => n.source !== 'none');
      const confidence = filledNotes.reduce((sum, n) => sum + n.confidence, 0) / filledNotes.length;
      notes.push({ path: ctx.path, confidence: roundConfidence(confidence), source, evidence, message: `${out.length} item(s) from ${how}` }, ...trial);
      return out;
    };

    const scope = this.selected(view, ctx);
    if (scope && scope.length > 0) {
      const done = collect(scope.toArray().map((el) => ({ scope: this.page.$(el), pageLevel: false, path: '', depth: 0 })), 'selector', `x-selector ${view.selector}`, snippet(this.page.$.html(scope.first())));
      if (done) return done;
    }
    const entities: { list: Entity[]; source: string; how: string }[] = [];
    const found = ctx.entity ? this.fromEntity(ctx.entity, name, view, this.concept(name, view)) : undefined;
    const fromProp = (found?.values ?? []).flatMap((v) => (v.entity ? [v.entity] : []));
    if (fromProp.length > 0) entities.push({ list: fromProp, source: found!.source, how: found!.how });
    if (ctx.pageLevel) {
      const typed = allEntities(this.page.entities).filter((e) => e !== ctx.entity && typeFitsName(e.types, name));
      if (typed.length > 0) entities.push({ list: typed, source: typed[0]!.source, how: `every ${typeName(typed[0]!)} on the page` });
    }
    for (const { list, source, how } of entities) {
      const done = collect(list.map((entity) => ({ entity, pageLevel: false, path: '', depth: 0 })), source, how, `${list.length} × ${typeName(list[0]!)} (${source})`);
      if (done) return done;
    }
    if (ctx.pageLevel) return this.tableItems(items, ctx, notes);
    return undefined;
  }

  /** Rows of a data table whose headers name at least half of the item's properties. */
  private tableItems(items: SchemaView, ctx: Context, notes: FieldNote[]): unknown[] | undefined {
    const names = Object.keys(items.properties);
    for (const table of this.page.records) {
      const column = new Map<string, number>();
      for (const name of names) {
        const concept = this.concept(name, this.reader.view(items.properties[name]));
        const labels = new Set([normalizeName(name), ...(concept?.concept.labels ?? []), ...(concept?.concept.names ?? [])]);
        const index = table.headers.findIndex((h) => labels.has(normalizeLabel(h)));
        if (index >= 0) column.set(name, index);
      }
      if (column.size === 0 || column.size < names.length / 2) continue;
      const out: Record<string, unknown>[] = [];
      const rowNotes: FieldNote[] = [];
      for (const row of table.rows) {
        const record: Record<string, unknown> = {};
        const path = `${ctx.path}[${out.length}]`;
        for (const name of names) {
          const view = this.reader.view(items.properties[name]);
          const i = column.get(name);
          const cell = i === undefined ? undefined : row.cells[i];
          const coerced = cell ? coerceText(cell, view, name, this.page.url) : undefined;
          if (coerced?.ok) {
            record[name] = coerced.value;
            rowNotes.push({ path: `${path}.${name}`, confidence: roundConfidence(SOURCE_CONFIDENCE.table! * coerced.factor), source: 'table', evidence: row.evidence, message: `column "${table.headers[i!]}"` });
          } else {
            if (items.required.includes(name)) record[name] = null;
            rowNotes.push({ path: `${path}.${name}`, confidence: 0, source: 'none', evidence: null, message: coerced && !coerced.ok ? coerced.message : 'No column for it' });
          }
        }
        out.push(record);
      }
      if (out.length === 0) continue;
      notes.push({ path: ctx.path, confidence: roundConfidence(SOURCE_CONFIDENCE.table!), source: 'table', evidence: snippet(table.headers.join(' | ')), message: `${out.length} row(s) of a table` }, ...rowNotes);
      return out;
    }
    return undefined;
  }
}

/**
 * The structured-data engine: no LLM, deterministic, always available. Reads JSON-LD,
 * microdata, RDFa, meta tags, tables and definition lists (plus `x-selector` hints) and fills
 * the schema from them; what it cannot find is null (or left out when optional), never guessed.
 */
export async function extractStructured(rawHtml: string, url: string, schema: JsonSchema): Promise<ExtractionResult> {
  const page = await readPageSources(rawHtml, url);
  const result = new StructuredExtraction(page, schema).run();
  return conformToSchema(result, schema);
}
