import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/search/ranking/passages';

describe('passagesOf', () => {
  it('keeps each line a passage of its own, trimmed', () => {
    expect(passagesOf('Lamps and lenses\n\n  Keepers tended the lamps.  \nTowers remain.')).toEqual(['Lamps and lenses', 'Keepers tended the lamps.', 'Towers remain.']);
  });

  it('cuts a long paragraph between sentences, never inside one, and every passage is quoted from the text', () => {
    const sentences = Array.from({ length: 12 }, (_, i) => `Sentence number ${i + 1} says something about the lighthouse keepers of the northern coast.`);
    const text = `Intro\n${sentences.join(' ')}`;
    const passages = passagesOf(text);
    expect(passages.length).toBeGreaterThan(2);
    for (const p of passages) {
      expect(text).toContain(p);
      expect(p.length).toBeLessThanOrEqual(400);
    }
    // Rejoined, the paragraph's passages are its sentences in order, each whole.
    expect(passages.slice(1).join(' ')).toBe(sentences.join(' '));
  });

  it('keeps a sentence longer than a passage whole', () => {
    const long = `${'word '.repeat(120).trim()}.`;
    expect(passagesOf(long)).toEqual([long]);
  });
});
