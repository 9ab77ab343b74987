import * as cheerio from 'cheerio';
import { distance } from 'fastest-levenshtein';
import { nameWords, type SchemaView } from '../json-schema/json-schema';

/** A page value turned into the schema's type; `factor` scales the source's confidence. */
export type Coerced = { ok: true; value: unknown; factor: number; message?: string } | { ok: false; message: string };

const ok = (value: unknown, factor = 1, message?: string): Coerced => ({ ok: true, value, factor, ...(message && { message }) });
const fail = (message: string): Coerced => ({ ok: false, message });

/** chrono-node, loaded on the first date it reads: about 24 MB that a process reading no dates need not hold. */
const chrono = (): typeof import('chrono-node') => require('chrono-node') as typeof import('chrono-node');

const SCHEMA_ORG_TERM = /^https?:\/\/(?:www\.)?schema\.org\/([A-Za-z]+)$/;

/** `https://schema.org/InStock` → `InStock`; other text as is. */
export function schemaOrgTerm(text: string): string {
  return SCHEMA_ORG_TERM.exec(text.trim())?.[1] ?? text;
}

/** Text with markup removed and entities decoded (JSON-LD descriptions often carry HTML). */
export function plainText(text: string): string {
  const decoded = /[<&]/.test(text) ? cheerio.load(text, null, false).text() : text;
  return decoded.replace(/\s+/g, ' ').trim();
}

/** Lower-case letters and digits only: how enum members and booleans are compared. */
function squash(text: string): string {
  return schemaOrgTerm(text).toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/**
 * The first number in a text, reading currency symbols, thousands separators and decimal
 * commas: `$1,299.00`, `1.299,00 €`, `12,5`. Ambiguous forms come back with a lower factor.
 */
export function parseNumber(text: string): { value: number; factor: number } | undefined {
  const matches = text.match(/[-−]?\d(?:[\d.,'\u00a0\u202f]*\d)?/g);
  if (!matches) return undefined;
  let token = matches[0].replace(/[\u00a0\u202f']/g, '').replace('−', '-');
  let factor = matches.length > 1 && new Set(matches).size > 1 ? 0.8 : 1;
  const lastDot = token.lastIndexOf('.');
  const lastComma = token.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    const thousands = decimal === '.' ? ',' : '.';
    token = token.split(thousands).join('').replace(decimal, '.');
  } else if (lastComma >= 0) {
    const groups = token.split(',');
    const grouped = groups.length > 2 || (groups.length === 2 && groups[1]!.length === 3);
    if (grouped && groups.slice(1).every((g) => g.length === 3)) {
      token = groups.join('');
      if (groups.length === 2) factor *= 0.9;
    } else if (groups.length === 2) token = groups.join('.');
    else return undefined;
  } else if (lastDot >= 0 && token.split('.').length > 2) {
    const groups = token.split('.');
    if (!groups.slice(1).every((g) => g.length === 3)) return undefined;
    token = groups.join('');
  } else if (/^-?\d{1,3}\.\d{3}$/.test(token)) factor *= 0.8;
  const value = Number(token);
  return Number.isFinite(value) ? { value, factor } : undefined;
}

/** Minutes in an ISO 8601 duration (`PT1H30M`) or a written one (`1 hr 30 mins`). */
export function durationMinutes(text: string): number | undefined {
  const iso = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(text.trim());
  if (iso && text.trim().length > 1) {
    const [, d, h, m, s] = iso.map((x) => Number(x ?? 0));
    return d! * 1440 + h! * 60 + m! + s! / 60;
  }
  const hours = /(\d+(?:[.,]\d+)?)\s*(?:h|hrs?|hours?)\b/i.exec(text);
  const minutes = /(\d+)\s*(?:m|mins?|minutes?)\b/i.exec(text);
  if (!hours && !minutes) return undefined;
  return (hours ? Number(hours[1]!.replace(',', '.')) * 60 : 0) + (minutes ? Number(minutes[1]) : 0);
}

const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'on', 'instock', 'available', 'limitedavailability', 'instoreonly', 'onlineonly', 'telecommute', 'remote', 'free']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0', 'off', 'outofstock', 'soldout', 'discontinued', 'unavailable', 'notavailable']);

function coerceBoolean(text: string): Coerced {
  const s = squash(text);
  if (TRUE_WORDS.has(s)) return ok(true, s === 'true' || s === 'false' ? 1 : 0.95);
  if (FALSE_WORDS.has(s)) return ok(false, 0.95);
  return fail(`"${text}" is not a yes/no value`);
}

/** The enum member nearest to the text: exact (ignoring case and punctuation), contained, or close in spelling. */
function coerceEnum(text: string, members: unknown[]): Coerced {
  const s = squash(text);
  const strings = members.filter((m): m is string | number => typeof m === 'string' || typeof m === 'number');
  const exact = strings.find((m) => squash(String(m)) === s);
  if (exact !== undefined) return ok(exact);
  if (s.length >= 3) {
    const containing = strings.filter((m) => {
      const q = squash(String(m));
      return q.length >= 3 && (s.includes(q) || q.includes(s));
    });
    if (containing.length === 1) return ok(containing[0], 0.85, `"${text}" read as "${containing[0]}"`);
  }
  let best: { member: string | number; similarity: number } | undefined;
  for (const m of strings) {
    const q = squash(String(m));
    const similarity = 1 - distance(s, q) / Math.max(s.length, q.length, 1);
    if (!best || similarity > best.similarity) best = { member: m, similarity };
  }
  if (best && best.similarity >= 0.75) return ok(best.member, best.similarity * 0.9, `"${text}" read as the nearest option "${best.member}"`);
  return fail(`"${text}" matches none of ${strings.map((m) => JSON.stringify(m)).join(', ')}`);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Dates as the schema's `format` wants them: `date` → YYYY-MM-DD, `date-time` → RFC 3339. */
function coerceDate(text: string, format: 'date' | 'date-time'): Coerced {
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(text.trim());
  if (iso) {
    const [, y, mo, d, h, mi, s, tz] = iso;
    if (format === 'date') return ok(`${y}-${mo}-${d}`);
    if (!h) return ok(`${y}-${mo}-${d}T00:00:00Z`, 0.7, 'the page gives only a date; midnight UTC assumed');
    const zone = tz ? (tz === 'Z' ? 'Z' : tz.includes(':') ? tz : `${tz.slice(0, 3)}:${tz.slice(3)}`) : 'Z';
    return ok(`${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}${zone}`, tz ? 1 : 0.8, tz ? undefined : 'the page gives no time zone; UTC assumed');
  }
  const [parsed] = chrono().strict.parse(text);
  if (!parsed || !parsed.start.isCertain('day') || !parsed.start.isCertain('month')) return fail(`"${text}" is not a date`);
  const c = parsed.start;
  const date = `${c.get('year')}-${pad(c.get('month')!)}-${pad(c.get('day')!)}`;
  const factor = parsed.text.length < text.trim().length * 0.5 ? 0.8 : 0.95;
  if (format === 'date') return ok(date, factor, `read the date in "${parsed.text}"`);
  if (!c.isCertain('hour')) return ok(`${date}T00:00:00Z`, 0.7 * factor, 'the page gives only a date; midnight UTC assumed');
  const offset = c.get('timezoneOffset');
  const zone = offset === null || offset === undefined || !c.isCertain('timezoneOffset') ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return ok(`${date}T${pad(c.get('hour')!)}:${pad(c.get('minute') ?? 0)}:${pad(c.get('second') ?? 0)}${zone}`, zone === 'Z' ? 0.8 * factor : factor);
}

function mentions(view: SchemaView, name: string, words: string[]): boolean {
  const all = [...nameWords(name), ...nameWords(view.description ?? ''), ...nameWords(view.title ?? '')];
  return words.some((w) => all.includes(w));
}

/** A number for a number or integer property: durations as minutes, dates as years where the name says so. */
function coerceNumber(text: string, view: SchemaView, name: string): Coerced {
  const integer = view.kind === 'integer';
  const isoDate = /^(\d{4})-\d{2}(-\d{2})?/.exec(text.trim());
  if (isoDate && integer) {
    return ok(Number(isoDate[1]), mentions(view, name, ['year', 'founded', 'established', 'since']) ? 1 : 0.75, `the year of ${text}`);
  }
  const minutes = /^P[\dT]/i.test(text.trim()) || (mentions(view, name, ['time', 'minutes', 'duration', 'prep', 'cook']) && /\d\s*(h|hrs?|hours?|m|mins?|minutes?)\b/i.test(text)) ? durationMinutes(text) : undefined;
  if (minutes !== undefined) {
    const hours = mentions(view, name, ['hours', 'hour', 'hrs']);
    const value = hours ? minutes / 60 : minutes;
    if (integer && !Number.isInteger(value)) return fail(`${text} is not a whole number of ${hours ? 'hours' : 'minutes'}`);
    return ok(value, 1, `${text} as ${hours ? 'hours' : 'minutes'}`);
  }
  const parsed = parseNumber(text);
  if (!parsed) return fail(`"${text}" is not a number`);
  if (integer && !Number.isInteger(parsed.value)) return fail(`${parsed.value} is not a whole number`);
  return ok(parsed.value, parsed.factor, parsed.factor < 1 ? `read ${parsed.value} from "${text}"` : undefined);
}

/**
 * Turns one text value from the page into the property's type: numbers with currency and
 * separators, booleans, ISO dates, enum members by nearest match, URLs made absolute.
 */
export function coerceText(raw: string, view: SchemaView, name: string, pageUrl: string): Coerced {
  const text = plainText(raw);
  if (!text) return fail('the value is empty');
  if (view.enum && view.enum.length > 0) return coerceEnum(text, view.enum);
  switch (view.kind) {
    case 'number':
    case 'integer':
      return coerceNumber(text, view, name);
    case 'boolean':
      return coerceBoolean(text);
    case 'object':
    case 'array':
      return fail(`a text cannot fill a ${view.kind}`);
    default:
      break;
  }
  if (view.format === 'date' || view.format === 'date-time') return coerceDate(text, view.format);
  if (view.format === 'uri' || view.format === 'url' || view.format === 'iri') {
    try {
      const url = new URL(text, pageUrl);
      return url.protocol === 'http:' || url.protocol === 'https:' ? ok(url.href) : fail(`"${text}" is not a web address`);
    } catch {
      return fail(`"${text}" is not a web address`);
    }
  }
  if (view.format === 'email') {
    const email = text.replace(/^mailto:/i, '');
    return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) ? ok(email) : fail(`"${text}" is not an email address`);
  }
  const term = schemaOrgTerm(text);
  return term === text ? ok(text) : ok(term, 1, `schema.org term ${text}`);
}
