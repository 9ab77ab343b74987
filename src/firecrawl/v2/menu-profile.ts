import { extractPage } from '../../extract/extract-page';
import type { ExtractionEngine, PageInput } from '../../extract/extraction-engine';
import { statedValues } from '../../extract/stated-values';
import { extractStructured } from '../../extract/structured/structured-engine';
import type { MenuItem, MenuProfile, MenuSection } from '../../db/page-profiles';

const ITEM = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    image: { type: 'string' },
    price: { type: 'number' },
    priceCurrency: { type: 'string' },
    suitableForDiet: { type: 'array', items: { type: 'string' } },
  },
} as const;

/** schema.org's Restaurant → Menu → MenuSection → MenuItem, by the property names the structured-data engine maps. */
const MENU_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    hasMenuSection: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, hasMenuItem: { type: 'array', items: ITEM } } } },
    hasMenuItem: { type: 'array', items: ITEM },
  },
} as const;

interface ItemFields {
  name?: string;
  description?: string;
  image?: string;
  price?: number;
  priceCurrency?: string;
  suitableForDiet?: string[];
}
interface MenuFields {
  name?: string;
  hasMenuSection?: { name?: string; hasMenuItem?: ItemFields[] }[];
  hasMenuItem?: ItemFields[];
}

/**
 * The page's menu from its schema.org data (JSON-LD, microdata, RDFa), read by the engine
 * `extract` uses; with `llm`, a page whose data lists no menu item, or an item without its price,
 * is read by the model too (`llmUsed`), which keeps only what the page states. No menu item: no
 * menu. A menu without sections is one section, with an empty name. (The engine finds a property
 * wherever the data has it, so the menu's own items are only read when it has no sections: they
 * would be the sections' items.)
 */
export async function menuProfile(page: PageInput, llm?: ExtractionEngine): Promise<{ menu?: MenuProfile; llmUsed: boolean }> {
  const structured = await extractStructured(page.rawHtml, page.url, MENU_SCHEMA);
  const llmUsed = Boolean(llm && hasGaps(sectionsOf(structured.data as MenuFields)));
  const result = llmUsed ? await extractPage(page, { schema: MENU_SCHEMA }, llm) : structured;
  const m = statedValues(result) as MenuFields;
  const sections: MenuSection[] = sectionsOf(m)
    .map((s, i) => ({ id: `section-${i + 1}`, name: s.name ?? '', items: (s.hasMenuItem ?? []).filter((item) => item.name).map((item, j) => menuItem(item, `item-${i + 1}-${j + 1}`, page.url)) }))
    .filter((s) => s.items.length > 0);
  if (sections.length === 0) return { llmUsed };
  const currency = sections.flatMap((s) => s.items).find((item) => item.price?.currency)?.price?.currency;
  const found = result.notes.filter((n) => /^hasMenu(Section|Item)\b/.test(n.path) && n.source !== 'none');
  const menu: MenuProfile = {
    isMenu: true,
    confidence: Math.max(0, ...found.map((n) => n.confidence)),
    merchant: { name: m.name ?? '' },
    ...(currency && { currency }),
    sections,
    sourceUrl: page.url,
  };
  return { menu, llmUsed };
}

function sectionsOf(m: MenuFields): { name?: string; hasMenuItem?: ItemFields[] }[] {
  return m.hasMenuSection?.length ? m.hasMenuSection : [{ hasMenuItem: m.hasMenuItem }];
}

/** No item at all, or one without its price: what a model reading the page text may fill. */
function hasGaps(sections: { hasMenuItem?: ItemFields[] }[]): boolean {
  const items = sections.flatMap((s) => s.hasMenuItem ?? []);
  return items.length === 0 || items.some((item) => item.price === undefined || item.price === null);
}

function menuItem(item: ItemFields, id: string, url: string): MenuItem {
  return {
    id,
    name: item.name!,
    ...(item.description && { description: item.description }),
    images: item.image ? [{ url: item.image }] : [],
    ...(item.price !== undefined && { price: { amount: item.price, ...(item.priceCurrency && { currency: item.priceCurrency }) } }),
    dietary: (item.suitableForDiet ?? []).map((d) => d.replace(/^.*[/#]/, '')),
    optionGroups: [],
    identifiers: {},
    sourceUrl: url,
  };
}
