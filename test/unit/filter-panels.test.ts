import { describe, expect, it } from 'vitest';
import { dropFilterPanels } from '../../src/scrape/main-content/filter-panels';
import { prunedText } from './pruned-text';

const items = Array.from({ length: 6 }, (_, i) => `<li><a href="/sets/${i}">Staunton chess set ${i}</a><p>Weighted pieces in boxwood and ebony, with a walnut board of 2.25 inch squares.</p></li>`).join('');

describe('dropFilterPanels', () => {
  it("drops a grid's form of choices, whatever its class, and keeps the items and a short form of its own", () => {
    const choice = (name: string, value: string) => `<div><input type="checkbox" name="${name}" id="${value}"><label for="${value}">${value}</label></div>`;
    const panel = `<form class="cat_filter" method="get"><p>Colour of Board</p>${['Dark Brown', 'Mid Brown', 'Grey'].map((v) => choice('colour', v)).join('')}<p>Sort Order</p><div><input type="radio" name="sort" id="p"><label for="p">Price: Low to High</label></div><select name="per"><option>24</option></select></form>`;
    const signup = `<form><input type="checkbox" id="gift"><label for="gift">Gift wrap</label></form>`;
    const text = prunedText(`${panel}<ul>${items}</ul>${signup}`, dropFilterPanels);
    expect(text).not.toContain('Colour of Board');
    expect(text).not.toContain('Price: Low to High');
    expect(text).toContain('Staunton chess set 5');
    expect(text).toContain('Gift wrap');
  });

  it("keeps each card's quick-add form, and the forms of choices that would together be half the page", () => {
    const sizes = ['XS', 'S', 'M', 'L', 'XL'].map((size) => `<input type="radio" name="size" id="${size}"><label for="${size}">${size}</label>`).join('');
    const cards = Array.from({ length: 6 }, (_, i) => `<form action="/cart/add"><a href="/tees/${i}">Cotton tee ${i}</a><span>$20</span>${sizes}</form>`).join('');
    expect(prunedText(`<h2>Tees</h2>${cards}`, dropFilterPanels)).toContain('Cotton tee 5');
    const panel = (i: number) => `<form>${['Red', 'Blue', 'Green', 'Black'].map((c) => `<input type="checkbox" id="${c}${i}"><label for="${c}${i}">${c} ${i}</label>`).join('')}</form>`;
    // Each panel is well under half the page, but the two together are not: one stays.
    const text = prunedText(`<p>Paints</p>${panel(1)}${panel(2)}`, dropFilterPanels);
    expect(text).not.toContain('Red 1');
    expect(text).toContain('Red 2');
  });

  it('keeps a form with more to say than its labels, and a form of choices that is most of the page', () => {
    const wrapped = `<form>${['a', 'b', 'c', 'd'].map((v) => `<input type="checkbox" id="${v}"><label for="${v}">Option ${v}</label>`).join('')}<ul>${items}</ul></form>`;
    expect(prunedText(wrapped, dropFilterPanels)).toContain('Staunton chess set 5');
    const index = `<h1>Parts</h1><form>${Array.from({ length: 12 }, (_, i) => `<div><input type="checkbox" id="c${i}"><label for="c${i}">Batteries and chargers ${i}</label></div>`).join('')}</form>`;
    expect(prunedText(index, dropFilterPanels)).toContain('Batteries and chargers 11');
  });
});
