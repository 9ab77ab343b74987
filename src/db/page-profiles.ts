/**
 * The v2 product and menu formats' results, in the shapes firecrawl-js declares. A crawl's or
 * batch's page stores them when an LLM read them (see llm-formats.ts), so declared here, below
 * the code that reads them.
 */

/** A price as firecrawl-js declares it (`ProductPrice`). */
export interface ProductPrice {
  amount: number;
  currency?: string;
}

/**
 * One offer of the product (firecrawl-js `ProductVariant`). `availability` is absent when the
 * page does not state it, though the SDK's type requires it: stated, or nothing, never guessed.
 */
export interface ProductVariant {
  sku?: string;
  price?: ProductPrice;
  availability?: { inStock: boolean; text: string };
  images?: { url: string }[];
}

/** The product format's result (firecrawl-js `ProductProfile`). */
export interface ProductProfile {
  title: string;
  brand?: string;
  category?: string;
  url: string;
  description?: string;
  variants: ProductVariant[];
}

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
  /** How sure the extraction is of what it read: its most confident note on the sections or items. */
  confidence: number;
  merchant: { name: string };
  currency?: string;
  sections: MenuSection[];
  sourceUrl: string;
}
