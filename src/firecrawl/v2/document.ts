import { z } from 'zod';
import type { PageRow } from '../../db/page-row';
import { pageToDocument } from '../v1/document';
import type { ActionResults, PageMetadata } from '../../db/page-metadata';
import type { Format } from '../../scrape/document';
import { metadataSchema } from '../v1/document-schema';
import { attributesOf, imagesOf, MAX_IMAGES_PER_PAGE, type AttributeValues } from './page-markup';
import type { ChangeTrackingResult } from '../../scrape/change-tracking/change-result';
import type { BrandingProfile } from '../../db/branding-profile';
import type { MenuProfile, ProductProfile } from '../../db/page-profiles';
import type { V2OutputSpec } from './scrape-options';

/** What the v2 API adds to a stored page that is not stored with it. */
export interface V2DocumentExtras {
  /** The summary format's text. */
  summary?: string;
  /** The changeTracking format's comparison. */
  changeTracking?: ChangeTrackingResult;
  /** The question or query format's answer. */
  answer?: string;
  /** The highlights format's passages. */
  highlights?: string;
  /** The product format's profile. */
  product?: ProductProfile;
  /** The menu format's profile. */
  menu?: MenuProfile;
}

/** One page in v2 form (the SDK's `Document`); only the formats asked for are present. */
export interface V2Document {
  markdown?: string;
  /** Ours: the page as plain text (the `text` format). */
  text?: string;
  html?: string;
  rawHtml?: string;
  json?: unknown;
  summary?: string;
  links?: string[];
  images?: string[];
  screenshot?: string;
  attributes?: AttributeValues[];
  actions?: ActionResults;
  changeTracking?: ChangeTrackingResult;
  /** The question or query format: a quote from the page, or an LLM's grounded answer. */
  answer?: string;
  /** The highlights format: the page's most relevant passages, best first, a blank line apart. */
  highlights?: string;
  /** The product format: the page's product, from its structured data. */
  product?: ProductProfile;
  /** The menu format: the page's menu, from its schema.org data. */
  menu?: MenuProfile;
  /** The branding format: colours, fonts, logo and favicon of the rendered page. */
  branding?: BrandingProfile;
  warning?: string;
  metadata: Omit<PageMetadata, 'cacheState'> & { cacheState: 'hit' | 'miss' };
}

const FORMATS_STORED_AS_IS: readonly Format[] = ['markdown', 'text', 'html', 'rawHtml', 'links', 'json'];

/**
 * A stored page in the shape the v2 SDK declares. The stored row holds what the internal scrape
 * produced; `output` (kept with the job) says which v2 formats to show, and derived formats
 * (images, attributes) are read from the stored raw HTML.
 */
export function toV2Document(row: PageRow, output: V2OutputSpec, extras: V2DocumentExtras = {}): V2Document {
  const want = new Set<string>(output.formats);
  const shown = FORMATS_STORED_AS_IS.filter((f) => want.has(f));
  if (output.screenshot) shown.push(output.screenshot.fullPage ? 'screenshot@fullPage' : 'screenshot');
  const { metadata, ...v1 } = pageToDocument(row, shown);
  const warnings = v1.warning ? [v1.warning] : [];
  const doc: V2Document = { ...v1, metadata: { ...metadata, cacheState: metadata.cacheState ?? 'miss' } };
  delete doc.warning;

  const rawHtml = row.rawHtml ?? '';
  if (want.has('images')) {
    const { images, total } = imagesOf(rawHtml, metadata.url);
    doc.images = images;
    if (total > images.length) warnings.push(`The page has ${total} images; \`images\` lists the first ${MAX_IMAGES_PER_PAGE}.`);
  }
  if (want.has('attributes') && output.attributes) doc.attributes = attributesOf(rawHtml, output.attributes);
  if (want.has('summary') && extras.summary !== undefined) doc.summary = extras.summary;
  if (want.has('changeTracking') && extras.changeTracking) doc.changeTracking = extras.changeTracking;
  if ((want.has('question') || want.has('query')) && extras.answer !== undefined) doc.answer = extras.answer;
  if (want.has('highlights') && extras.highlights !== undefined) doc.highlights = extras.highlights;
  if (want.has('product') && extras.product) doc.product = extras.product;
  if (want.has('menu') && extras.menu) doc.menu = extras.menu;
  if (want.has('branding')) {
    if (row.branding) doc.branding = row.branding;
    else warnings.push('The page was not rendered as a web page (a PDF or other file), so it has no `branding`.');
  }
  if (warnings.length) doc.warning = warnings.join(' ');
  return doc;
}

const changeTrackingSchema = z.object({
  previousScrapeAt: z.string().nullable(),
  changeStatus: z.enum(['new', 'same', 'changed', 'removed']),
  visibility: z.literal('visible'),
  diff: z.object({ text: z.string(), json: z.unknown() }).optional(),
  json: z.record(z.string(), z.object({ previous: z.unknown(), current: z.unknown() })).optional(),
});

const priceSchema = z.object({ amount: z.number(), currency: z.string().optional() });
const productProfileSchema = z.object({
  title: z.string(),
  brand: z.string().optional(),
  category: z.string().optional(),
  url: z.string(),
  description: z.string().optional(),
  variants: z.array(
    z.object({
      sku: z.string().optional(),
      price: priceSchema.optional(),
      availability: z.object({ inStock: z.boolean(), text: z.string() }).optional(),
      images: z.array(z.object({ url: z.string() })).optional(),
    }),
  ),
});

const menuProfileSchema = z.object({
  isMenu: z.literal(true),
  confidence: z.number(),
  merchant: z.object({ name: z.string() }),
  currency: z.string().optional(),
  sections: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      items: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          description: z.string().optional(),
          images: z.array(z.object({ url: z.string() })),
          price: priceSchema.optional(),
          dietary: z.array(z.string()),
          optionGroups: z.array(z.never()),
          identifiers: z.object({}),
          sourceUrl: z.string(),
        }),
      ),
    }),
  ),
  sourceUrl: z.string(),
});

/** The v2 Document, for the OpenAPI document (the code builds it with toV2Document). */
export const v2DocumentSchema = z
  .object({
    markdown: z.string().optional(),
    text: z.string().optional().describe('Ours: the page as plain text.'),
    html: z.string().optional(),
    rawHtml: z.string().optional(),
    json: z.unknown().optional(),
    summary: z.string().optional(),
    links: z.array(z.string()).optional(),
    images: z.array(z.string()).optional(),
    screenshot: z.string().optional().describe('Image URL; no key needed until it expires.'),
    attributes: z.array(z.object({ selector: z.string(), attribute: z.string(), values: z.array(z.string()) })).optional(),
    actions: z.unknown().optional(),
    changeTracking: changeTrackingSchema.optional(),
    answer: z.string().optional().describe('question/query formats: a quote from the page, or (with an LLM, freeform) a grounded answer.'),
    highlights: z.string().optional().describe("highlights format: the main content's passages most relevant to the query, best first, a blank line apart."),
    product: productProfileSchema.optional().describe("product format: the page's product from its structured data; fields the page does not state are absent."),
    menu: menuProfileSchema.optional().describe("menu format: the page's menu from its schema.org data (Menu, MenuSection, MenuItem)."),
    branding: z.record(z.string(), z.unknown()).optional().describe("branding format: colorScheme, brandName, logo, fonts, colors, typography, components.buttonPrimary and images (logo, favicon, ogImage), as the rendered page shows them; what it does not show is absent."),
    warning: z.string().optional(),
    metadata: metadataSchema.extend({ cacheState: z.enum(['hit', 'miss']) }),
  })
  .meta({ id: 'V2Document' });
