import { extractStructured } from '../../extract/structured/structured-engine';

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

/** What the structured-data engine is asked for: schema.org Product and Offer, by the names it maps. */
const PRODUCT_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    brand: { type: 'string' },
    category: { type: 'string' },
    description: { type: 'string' },
    sku: { type: 'string' },
    price: { type: 'number' },
    priceCurrency: { type: 'string' },
    availability: { type: 'string' },
    image: { type: 'string' },
  },
} as const;

interface ProductFields {
  name?: string;
  brand?: string;
  category?: string;
  description?: string;
  sku?: string;
  price?: number;
  priceCurrency?: string;
  availability?: string;
  image?: string;
}

/** schema.org ItemAvailability values under which the product can be bought now. */
const IN_STOCK = new Set(['instock', 'instoreonly', 'limitedavailability', 'onlineonly']);

/**
 * The page's product from its structured data (JSON-LD, microdata, RDFa, Open Graph and meta
 * tags, tables), read by the engine `extract` uses. A page is a product page when it states an
 * offer of one: a price, a SKU or an availability; otherwise there is no product.
 */
export async function productProfile(rawHtml: string, url: string): Promise<ProductProfile | undefined> {
  const { data } = await extractStructured(rawHtml, url, PRODUCT_SCHEMA);
  const p = data as ProductFields;
  if (p.price === undefined && p.sku === undefined && p.availability === undefined) return undefined;
  const availability = p.availability?.replace(/^.*[/#]/, '');
  const variant: ProductVariant = {
    ...(p.sku !== undefined && { sku: p.sku }),
    ...(p.price !== undefined && { price: { amount: p.price, ...(p.priceCurrency && { currency: p.priceCurrency }) } }),
    ...(availability && { availability: { inStock: IN_STOCK.has(availability.toLowerCase()), text: availability } }),
    ...(p.image && { images: [{ url: p.image }] }),
  };
  return {
    // The SDK requires a title: empty when nothing on the page names the product.
    title: p.name ?? '',
    ...(p.brand && { brand: p.brand }),
    ...(p.category && { category: p.category }),
    url,
    ...(p.description && { description: p.description }),
    variants: [variant],
  };
}
