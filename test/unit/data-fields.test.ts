import { describe, expect, it } from 'vitest';
import { dropDataFields } from '../../src/scrape/main-content/data-fields';
import { prunedText } from './pruned-text';

const pruned = (body: string) => prunedText(body, dropDataFields);

describe('dropDataFields', () => {
  it("drops a list of the shop's raw custom fields; keeps a spec sheet and a short list", () => {
    const dump =
      '<dl class="productView-info"><dt>SKU:</dt><dd>5001</dd><dt>short_description:</dt><dd>Regular Fit - 5.3 oz</dd><dt>retail_price_tier1:</dt><dd>$20.00_1–9 items</dd>' +
      '<dt>cat_thumb_Petrol Blue:</dt><dd>https://cdn.example.com/5001_STAPLE_TEE_PETROL_BLUE_THUMB.jpg</dd><dt>section_bg_color:</dt><dd>#f4f4f4</dd></dl>';
    const specs = '<dl><dt>Fit</dt><dd>Regular</dd><dt>Fabric</dt><dd>100% combed cotton</dd><dt>Weight</dt><dd>5.3 oz</dd><dt>Care</dt><dd>Cold wash</dd></dl>';
    const short = '<dl><dt>model_size</dt><dd>L</dd><dt>fit_note</dt><dd>True to size</dd></dl>';
    const text = pruned(`<h1>Staple Tee</h1>${dump}${specs}${short}`);
    expect(text).not.toContain('retail_price_tier1');
    expect(text).not.toContain('THUMB.jpg');
    expect(text).toContain('100% combed cotton');
    expect(text).toContain('model_size');
  });
});
