import type { CheerioAPI } from 'cheerio';
import { snippet } from '../extraction-result';
import { addValue, localName, type Entity, type EntityValue } from './entity';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Node = { [key: string]: Json };

const MAX_DEPTH = 8;

function isNode(v: Json | undefined): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Parses a JSON-LD block. Sites often ship almost-JSON (trailing commas, raw newlines in
 * strings, HTML comment wrappers); those are repaired before giving up on the block.
 */
function parseBlock(text: string): Json | undefined {
  const body = text.trim().replace(/^<!--/, '').replace(/-->$/, '').replace(/^\/\*<!\[CDATA\[\*\//, '').replace(/\/\*\]\]>\*\/$/, '').trim();
  try {
    return JSON.parse(body) as Json;
  } catch {
    try {
      return JSON.parse(body.replace(/,\s*([}\]])/g, '$1').replace(/[\u0000-\u001f]+/g, ' ')) as Json;
    } catch {
      return undefined;
    }
  }
}

/**
 * JSON-LD as entities. Top-level objects and `@graph` members are roots; nested objects and
 * `{"@id": ...}` references become child entities, so `offers.price` works however the site
 * laid its graph out. Terms are read by local name (no remote `@context` is ever fetched).
 */
export function jsonLdEntities($: CheerioAPI): Entity[] {
  const roots: Node[] = [];
  $('script[type="application/ld+json" i]').each((_, el) => {
    const parsed = parseBlock($(el).text());
    const collect = (v: Json | undefined) => {
      if (Array.isArray(v)) v.forEach(collect);
      else if (isNode(v)) {
        if (Array.isArray(v['@graph']) || isNode(v['@graph'])) collect(v['@graph']);
        else roots.push(v);
      }
    };
    collect(parsed);
  });

  const byId = new Map<string, Node>();
  const index = (v: Json, depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(v)) v.forEach((x) => index(x, depth + 1));
    else if (isNode(v)) {
      const id = v['@id'];
      if (typeof id === 'string' && Object.keys(v).some((k) => k !== '@id' && k !== '@context')) byId.set(id, v);
      Object.values(v).forEach((x) => index(x, depth + 1));
    }
  };
  roots.forEach((r) => index(r, 0));

  const built = new Map<Node, Entity>();
  const toEntity = (node: Node, depth: number): Entity => {
    const done = built.get(node);
    if (done) return done;
    const types = ([] as Json[]).concat(node['@type'] ?? []).filter((t): t is string => typeof t === 'string').map(localName);
    const entity: Entity = { source: 'json-ld', types, props: new Map() };
    built.set(node, entity);
    for (const [rawKey, raw] of Object.entries(node)) {
      if (rawKey.startsWith('@')) continue;
      const key = localName(rawKey);
      for (const item of ([] as Json[]).concat(raw)) {
        const value = toValue(rawKey, item, depth);
        if (value) addValue(entity, key, value);
      }
    }
    if (typeof node['@id'] === 'string' && !entity.props.has('url') && /^https?:/.test(node['@id'])) {
      addValue(entity, 'url', { text: node['@id'], evidence: `"@id": ${JSON.stringify(node['@id'])}` });
    }
    return entity;
  };
  const toValue = (key: string, item: Json, depth: number): EntityValue | undefined => {
    const evidence = snippet(`${JSON.stringify(key)}: ${JSON.stringify(item)}`);
    if (item === null) return undefined;
    if (!isNode(item)) return Array.isArray(item) ? undefined : { text: String(item), evidence };
    if ('@value' in item) return item['@value'] === null ? undefined : { text: String(item['@value']), evidence };
    const ref = typeof item['@id'] === 'string' ? byId.get(item['@id']) : undefined;
    const target = ref && ref !== item ? ref : item;
    const isBareRef = Object.keys(target).every((k) => k === '@id' || k === '@type');
    if (isBareRef) return typeof target['@id'] === 'string' ? { text: target['@id'], evidence } : undefined;
    if (depth >= MAX_DEPTH) return undefined;
    return { entity: toEntity(target, depth + 1), evidence };
  };
  return roots.map((r) => toEntity(r, 0));
}
