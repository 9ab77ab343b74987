import type { PageScan } from '../html/scan-page';
import { headingNamesProduct } from './named-product';
import { measureStructure } from './page-structure';
import { detectPageType, type PageTypeGuess } from './page-type';
import { parseJsonLd, schemaTypes } from './schema-types';

export interface RecognisedPage extends PageTypeGuess {
  /** The page's JSON-LD, parsed once for typing and for product facts. */
  jsonLd: unknown[];
}

function metaContent(scan: PageScan, key: string): string | undefined {
  for (const meta of scan.metas) {
    const name = (meta.getAttribute('property') ?? meta.getAttribute('name'))?.trim().toLowerCase();
    if (name === key) return meta.getAttribute('content')?.trim() || undefined;
  }
  return undefined;
}

/** The page type of a cleaned page, from what the scan read before cleaning and the cleaned body. */
export function recognisePage(scan: PageScan, body: Element, pageUrl: string): RecognisedPage {
  const jsonLd = parseJsonLd(scan.jsonLd);
  const guess = detectPageType(
    { url: pageUrl, schemaTypes: schemaTypes(jsonLd, scan.itemTypes), ogType: metaContent(scan, 'og:type'), generator: metaContent(scan, 'generator'), namedProduct: headingNamesProduct(body, jsonLd) },
    measureStructure(body),
  );
  return { ...guess, jsonLd };
}
