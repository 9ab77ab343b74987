/**
 * URL wildcards in an extract request: `https://host/path/*` means the pages under that path
 * (API.md). They expand through map discovery, in the `expandUrlPattern` activity.
 */

/** Most pages one extract job reads from its wildcards, all patterns together. */
export const PATTERN_PAGE_CAP = 20;

export function isUrlPattern(url: string): boolean {
  return url.includes('*');
}

/**
 * The page a wildcard's discovery starts from and the path its pages must be under:
 * `https://host/docs/*` → `https://host/docs/` and `/docs/`. Only a trailing `/*` is a wildcard.
 */
export function patternBase(pattern: string): { base: string; pathPrefix: string } | null {
  if (!pattern.endsWith('/*') || pattern.indexOf('*') !== pattern.length - 1) return null;
  try {
    const base = new URL(pattern.slice(0, -1));
    return { base: base.href, pathPrefix: base.pathname };
  } catch {
    return null;
  }
}

/** Input of `expandUrlPattern`. */
export interface ExpandUrlPatternInput {
  jobId: string;
  teamId: string;
  /** `https://host/path/*`. */
  pattern: string;
  /** Most pages to return. */
  limit: number;
  includeSubdomains: boolean;
  allowExternalLinks: boolean;
  ignoreSitemap: boolean;
}

/** A page to read, with its normalized key (src/url/normalize-url). */
export interface PatternPage {
  url: string;
  urlKey: string;
}

export interface ExpandUrlPatternOutput {
  /** Public http(s) pages under the pattern's path, most relevant first, at most `limit`. */
  pages: PatternPage[];
  /** More pages matched than `limit` allowed. */
  truncated: boolean;
}

/** The discovery activity the extract workflow calls for each wildcard; map discovery backs it. */
export interface UrlDiscoveryActivities {
  expandUrlPattern(input: ExpandUrlPatternInput): Promise<ExpandUrlPatternOutput>;
}

/** A page of an extract job that could not be read, for the job's notes. */
export interface PageFailureSummary {
  url: string;
  code: string;
  message: string;
}
