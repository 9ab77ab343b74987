/**
 * Postgres text-search configurations (Snowball stemmers) by ISO 639-1 code. Every one ships
 * with PostgreSQL 13 and later, and with PGlite.
 */
const CONFIG_BY_LANGUAGE = {
  ar: 'arabic',
  ca: 'catalan',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  eu: 'basque',
  fi: 'finnish',
  fr: 'french',
  ga: 'irish',
  hi: 'hindi',
  hu: 'hungarian',
  hy: 'armenian',
  id: 'indonesian',
  it: 'italian',
  lt: 'lithuanian',
  nb: 'norwegian',
  ne: 'nepali',
  nl: 'dutch',
  nn: 'norwegian',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
} as const;

export type TextSearchConfig = (typeof CONFIG_BY_LANGUAGE)[keyof typeof CONFIG_BY_LANGUAGE] | 'simple';

/** Every configuration a page can be indexed with; `simple` (no stemming) for the rest. */
export const TEXT_SEARCH_CONFIGS: readonly TextSearchConfig[] = [...new Set<TextSearchConfig>([...Object.values(CONFIG_BY_LANGUAGE), 'simple'])];

/** Pages that declare no language are indexed, and searched by default, as English. */
export const DEFAULT_TEXT_SEARCH_CONFIG: TextSearchConfig = 'english';

/**
 * The configuration for a language tag such as `en`, `de-AT` or `pt_BR`: its stemmer when
 * Postgres has one, `simple` (words as written) when not, English when there is no tag.
 */
export function textSearchConfigFor(languageTag: string | undefined | null): TextSearchConfig {
  const primary = languageTag?.trim().toLowerCase().split(/[-_]/)[0];
  if (!primary) return DEFAULT_TEXT_SEARCH_CONFIG;
  return (CONFIG_BY_LANGUAGE as Record<string, TextSearchConfig>)[primary] ?? 'simple';
}
