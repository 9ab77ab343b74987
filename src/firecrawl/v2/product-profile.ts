import { extractPage } from '../../extract/extract-page';
import type { ExtractionEngine, PageInput } from '../../extract/extraction-engine';
import { statedValues } from '../../extract/stated-values';
import { extractStructured } from '../../extract/structured/structured-engine';
import type { ProductProfile, ProductVariant } from '../../db/page-profiles';

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
 * tags, tables), read by the engine `extract` uses; with `llm`, the fields the data leaves out
 * are asked of the model too (`llmUsed`), and kept only when the page states them. A page is a
 * product page when it states an offer of one: a price, a SKU or an availability.
 */
export async function productProfile(page: PageInput, llm?: ExtractionEngine): Promise<{ product?: ProductProfile; llmUsed: boolean }> {
  const structured = await extractStructured(page.rawHtml, page.url, PRODUCT_SCHEMA);
  const gaps = Object.keys(PRODUCT_SCHEMA.properties).some((key) => structured.data[key] === undefined || structured.data[key] === null);
  const llmUsed = Boolean(llm && gaps);
  const result = llmUsed ? await extractPage(page, { schema: PRODUCT_SCHEMA }, llm) : structured;
  const p = statedValues(result) as ProductFields;
  if (p.price === undefined && p.sku === undefined && p.availability === undefined) return { llmUsed };
  const availability = p.availability?.replace(/^.*[/#]/, '');
  const variant: ProductVariant = {
    ...(p.sku !== undefined && { sku: p.sku }),
    ...(p.price !== undefined && { price: { amount: p.price, ...(p.priceCurrency && { currency: p.priceCurrency }) } }),
    ...(availability && { availability: { inStock: IN_STOCK.has(availability.toLowerCase()), text: availability } }),
    ...(p.image && { images: [{ url: p.image }] }),
  };
  const product: ProductProfile = {
    // The SDK requires a title: empty when nothing on the page names the product.
    title: p.name ?? '',
    ...(p.brand && { brand: p.brand }),
    ...(p.category && { category: p.category }),
    url: page.url,
    ...(p.description && { description: p.description }),
    variants: [variant],
  };
  return { product, llmUsed };
}
