/**
 * What the branding format read from a rendered page, in the shape firecrawl-js declares
 * (`BrandingProfile`), as far as a page's computed styles and markup state it. Stored with the
 * page, so declared here, below the browser code that reads it.
 */
export interface BrandingProfile {
  colorScheme?: 'light' | 'dark';
  brandName?: string;
  logo?: string;
  fonts?: { family: string }[];
  colors?: { primary?: string; background?: string; textPrimary?: string; link?: string };
  typography?: {
    fontFamilies?: { primary?: string; heading?: string; code?: string };
    fontStacks?: { body?: string[]; heading?: string[] };
    fontSizes?: { h1?: string; h2?: string; h3?: string; body?: string };
  };
  components?: { buttonPrimary?: { background?: string; textColor?: string; borderRadius?: string } };
  images?: { logo?: string; favicon?: string; ogImage?: string };
}
