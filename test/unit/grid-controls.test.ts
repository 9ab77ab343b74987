import { describe, expect, it } from 'vitest';
import { dropGridControls } from '../../src/scrape/main-content/grid-controls';
import { prunedText } from './pruned-text';

describe('dropGridControls', () => {
  it('drops result counts, sort, filter and page controls, keeps the items', () => {
    const text = prunedText(
      '<div>loaded 154 results</div><span>Products (296)</span><div>Filter</div><div>Sort: <b>Best Match</b></div><p>Showing 1-24 of 300</p>' +
        '<ul><li><a href="/p/1">Flash 55 Pack</a><p>A light pack for long days.</p></li><li><a href="/p/2">Trail 40</a><p>Sort your gear with six pockets.</p></li></ul><div>Page 1 of 77</div>',
      dropGridControls,
    );
    expect(text).toBe('Flash 55 Pack\nA light pack for long days.\n\nTrail 40\nSort your gear with six pockets.');
  });
});
