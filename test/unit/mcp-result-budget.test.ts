import { describe, expect, it } from 'vitest';
import { ConfigError, loadMcpConfig } from '../../src/config/env';
import { budgetedResult, fitJson } from '../../src/mcp/result-budget';

const text = (n: number, seed = 'x') => Array.from({ length: n }, (_, i) => seed + (i % 10)).join('').slice(0, n);

describe('fitJson', () => {
  it('leaves a result that fits alone', () => {
    const value = { markdown: text(500), metadata: { title: 'T' } };
    expect(fitJson(value, 10_000)).toEqual({ text: JSON.stringify(value, null, 2), cuts: [], totalChars: JSON.stringify(value, null, 2).length });
  });

  it('cuts the longest string to fit, keeping its start, and says by how much', () => {
    const markdown = text(50_000);
    const fitted = fitJson({ markdown, metadata: { title: 'T' } }, 3_000);
    expect(fitted.text.length).toBeLessThanOrEqual(3_000);
    const kept = JSON.parse(fitted.text).markdown as string;
    expect(kept.endsWith('…')).toBe(true);
    expect(markdown.startsWith(kept.slice(0, -1))).toBe(true);
    expect(fitted.cuts).toEqual([{ path: 'markdown', unit: 'characters', from: 0, kept: kept.length - 1, total: 50_000 }]);
  });

  it('drops whole list items before cutting inside one, and forgets cuts of dropped items', () => {
    const data = Array.from({ length: 10 }, (_, i) => ({ url: `https://x.test/${i}`, markdown: text(1_500, String(i)) }));
    const fitted = fitJson({ status: 'completed', data }, 4_000);
    expect(fitted.text.length).toBeLessThanOrEqual(4_000);
    const shown = JSON.parse(fitted.text).data as typeof data;
    expect(shown.length).toBeGreaterThanOrEqual(1);
    expect(shown).toEqual(data.slice(0, shown.length));
    expect(fitted.cuts).toEqual([{ path: 'data', unit: 'items', from: 0, kept: shown.length, total: 10 }]);
  });

  it('counts a continued read from its offset', () => {
    const fitted = fitJson({ markdown: text(20_000) }, 2_000, { readFrom: { fields: ['markdown'], offset: 5_000 } });
    expect(fitted.cuts[0]).toMatchObject({ path: 'markdown', from: 5_000, total: 25_000 });
  });
});

describe('budgetedResult', () => {
  it('puts the note first and stays within the budget', () => {
    const result = budgetedResult({ markdown: text(100_000) }, 5_000, () => 'call it again with "contentOffset": 4000.');
    const [note, body] = result.content.map((c) => (c as { text: string }).text);
    expect(note).toMatch(/^TRUNCATED: this result was cut to fit the 5,000-character budget/);
    expect(note).toContain('- markdown: kept characters 0–');
    expect(note).toContain('To get the rest: call it again with "contentOffset": 4000.');
    expect(note!.length + body!.length).toBeLessThanOrEqual(5_000);
  });
});

describe('loadMcpConfig', () => {
  it('defaults the budget and the wait, and names a bad value', () => {
    expect(loadMcpConfig({})).toEqual({ MCP_RESULT_MAX_CHARS: 20_000, MCP_WAIT_SECONDS: 50 });
    expect(loadMcpConfig({ MCP_RESULT_MAX_CHARS: '4000', MCP_WAIT_SECONDS: '' })).toEqual({ MCP_RESULT_MAX_CHARS: 4_000, MCP_WAIT_SECONDS: 50 });
    expect(() => loadMcpConfig({ MCP_RESULT_MAX_CHARS: '10' })).toThrow(ConfigError);
    expect(() => loadMcpConfig({ MCP_RESULT_MAX_CHARS: '10' })).toThrow(/MCP_RESULT_MAX_CHARS: .* \(got "10"\)/);
  });
});
