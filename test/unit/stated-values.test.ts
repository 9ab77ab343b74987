import { describe, expect, it } from 'vitest';
import type { FieldNote } from '../../src/db/field-note';
import { statedValues } from '../../src/extract/stated-values';

const note = (path: string, confidence: number): FieldNote => ({ path, confidence, source: 'llm', evidence: null });

describe('statedValues', () => {
  it('keeps the values the notes vouch for, at any depth, a value without a note of its own taking its nearest parent’s', () => {
    const data = { name: 'Harbour Kitchen', brand: null, sections: [{ name: 'Starters', items: [{ name: 'Oysters', price: 14.5 }, { name: 'Lobster', price: 40 }], diets: ['GlutenFree'] }] };
    const notes = [
      note('', 1),
      note('name', 0.9),
      note('sections', 0.9),
      note('sections[0].items[1].name', 0.15),
      note('sections[0].items[1].price', 0.5),
      note('sections[0].diets', 0.95),
    ];
    expect(statedValues({ data, notes, llmTokens: 0 })).toEqual({ name: 'Harbour Kitchen', sections: [{ name: 'Starters', items: [{ name: 'Oysters', price: 14.5 }], diets: ['GlutenFree'] }] });
  });

  it('does not take the whole result’s note as a field’s', () => {
    expect(statedValues({ data: { sku: 'X1' }, notes: [note('', 1)], llmTokens: 0 })).toEqual({});
  });
});
