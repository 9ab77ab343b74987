import { extractStructured } from '../../extract/structured/structured-engine';
import type { ProductPrice } from './product-profile';

/**
 * One dish (firecrawl-js `MenuItem`). `availability` is left out, though the SDK's type
 * requires it: a menu's structured data does not say what is in stock, and nothing is guessed.
 */
export interface MenuItem {
  id: string;
  name: string;
  description?: string;
  images: { url: string }[];
  price?: ProductPrice;
  dietary: string[];
  optionGroups: never[];
  identifiers: Record<string, never>;
  sourceUrl: string;
}

export interface MenuSection {
  id: string;
  name: string;
  items: MenuItem[];
}

/** The menu format's result (firecrawl-js `MenuProfile`). */
export interface MenuProfile {
  isMenu: true;
  /** How sure the structured-data engine is of the sections it read. */
  confidence: number;
  merchant: { name: string };
  currency?: string;
  sections: MenuSection[];
  sourceUrl: string;
}

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
 * `extract` uses; undefined when the page states no menu item. A menu without sections is one
 * section, with an empty name. (The engine finds a property wherever the data has it, so the
 * menu's own items are only read when it has no sections: they would be the sections' items.)
 */
export async function menuProfile(rawHtml: string, url: string): Promise<MenuProfile | undefined> {
  const { data, notes } = await extractStructured(rawHtml, url, MENU_SCHEMA);
  const m = data as MenuFields;
  const listed = m.hasMenuSection?.length ? m.hasMenuSection : [{ hasMenuItem: m.hasMenuItem }];
  const sections: MenuSection[] = listed
    .map((s, i) => ({
      id: `section-${i + 1}`,
      name: s.name ?? '',
      items: (s.hasMenuItem ?? []).filter((item) => item.name).map((item, j) => menuItem(item, `item-${i + 1}-${j + 1}`, url)),
    }))
    .filter((s) => s.items.length > 0);
  if (sections.length === 0) return undefined;
  const currency = sections.flatMap((s) => s.items).find((item) => item.price?.currency)?.price?.currency;
  const found = notes.filter((n) => (n.path === 'hasMenuSection' || n.path === 'hasMenuItem') && n.source !== 'none');
  return {
    isMenu: true,
    confidence: Math.max(0, ...found.map((n) => n.confidence)),
    merchant: { name: m.name ?? '' },
    ...(currency && { currency }),
    sections,
    sourceUrl: url,
  };
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
