import { describe, expect, it } from 'vitest';
import { blendScore } from '../../src/search/ranking/blend';
import { bm25Scores } from '../../src/search/ranking/bm25';
import { nearDuplicateIndexes } from '../../src/search/ranking/near-duplicates';
import { distinctHits } from '../../src/search/search-candidates';
import { textSearchConfigFor } from '../../src/db/text-search-language';
import { parseTimeFilter, TBS_PATTERN, timeWindow } from '../../src/search/time-filter';
import { queryLexemes } from '../../src/search/ts-query';

const doc = (tf: Record<string, number>, length: number) => ({ tf: new Map(Object.entries(tf)), length });

describe('BM25', () => {
  it('prefers rarer terms, more occurrences and shorter documents', () => {
    const [rare, common, none] = bm25Scores([doc({ axolotl: 1, water: 1 }, 100), doc({ water: 1 }, 100), doc({}, 100)], ['axolotl', 'water']);
    expect(rare).toBeGreaterThan(common!);
    expect(none).toBe(0);
    const [once, thrice] = bm25Scores([doc({ tide: 1 }, 100), doc({ tide: 3 }, 100), doc({}, 100)], ['tide']);
    expect(thrice).toBeGreaterThan(once!);
    const [short, long] = bm25Scores([doc({ tide: 2 }, 50), doc({ tide: 2 }, 500), doc({}, 100)], ['tide']);
    expect(short).toBeGreaterThan(long!);
  });
});

describe('the blend', () => {
  it('keeps the provider order between equally relevant pages, and lets clearly better content move up', () => {
    expect(blendScore(1, 5, 10)).toBeGreaterThan(blendScore(2, 5, 10));
    expect(blendScore(3, 10, 10)).toBeGreaterThan(blendScore(1, 1, 10));
    expect(blendScore(1, 0, 0)).toBeCloseTo(0.4);
    expect(blendScore(1, 10, 10)).toBeCloseTo(1);
  });
});

describe('near-duplicate content', () => {
  const article = 'The keeper trimmed the wicks at dusk, polished the great lens before dawn and wound the clockwork that turned the light every four hours through the night, writing each ship that passed into the log.';
  it('drops a copy with a different heading, keeping the first, and keeps different texts and short ones', () => {
    expect(nearDuplicateIndexes([`Keeping the light\n${article}`, 'Tide tables for the estuary, printed weekly by the harbour office, with heights in metres above chart datum and times in local time.', `Keeping the light (print)\n${article}`, 'Short', null])).toEqual(new Set([2]));
  });
});

describe('candidates', () => {
  it('keeps each normalised URL once, http(s) only, in order', () => {
    const hits = ['https://a.example/x#top', 'https://A.example:443/x', 'ftp://a.example/f', 'not a url', 'http://b.example/y?b=2&a=1', 'http://b.example/y?a=1&b=2'].map((url) => ({ url, title: '', description: '' }));
    expect(distinctHits(hits, () => true).map((h) => h.url)).toEqual(['https://a.example/x#top', 'http://b.example/y?b=2&a=1']);
    expect(distinctHits(hits, (u) => u.hostname !== 'a.example').map((h) => h.url)).toEqual(['http://b.example/y?b=2&a=1']);
  });
});

describe('query and language helpers', () => {
  it('reads the lexemes of a tsquery, without negated ones', () => {
    expect(queryLexemes("'sourdough' <-> 'starter' & ( 'car' | 'automobil' ) & !'rye' & 'o''brien'")).toEqual(['sourdough', 'starter', 'car', 'automobil', "o'brien"]);
  });

  it('maps language tags to Postgres text-search configurations', () => {
    expect(['en', 'de-AT', 'pt_BR', 'ja', undefined, ''].map(textSearchConfigFor)).toEqual(['english', 'german', 'portuguese', 'simple', 'english', 'english']);
  });

  it('parses tbs time filters', () => {
    expect(['qdr:h', 'qdr:w2', 'cdr:1,cd_min:1/2/2024,cd_max:12/31/2024'].every((t) => TBS_PATTERN.test(t))).toBe(true);
    expect(TBS_PATTERN.test('qdr:x')).toBe(false);
    const now = Date.UTC(2026, 0, 15);
    expect(timeWindow(parseTimeFilter('qdr:w2'), now).from.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(timeWindow(parseTimeFilter('cdr:1,cd_min:1/2/2024,cd_max:12/31/2024'), now)).toEqual({ from: new Date('2024-01-02T00:00:00Z'), to: new Date('2024-12-31T23:59:59Z') });
  });
});
