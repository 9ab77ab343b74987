import * as cheerio from 'cheerio';
import { baseUrlOf } from '../../scrape/html/base-url';
import { snippet } from '../extraction-result';
import type { Entity } from './entity';
import { jsonLdEntities } from './json-ld';
import { metaEntries, type MetaEntry } from './meta-tags';
import { microdataEntities, rdfaEntities } from './rdf-items';
import { tableSignals, type LabeledValue, type RecordTable } from './tables';

/** Everything machine-readable a page states, read once per page. */
export interface PageSources {
  $: cheerio.CheerioAPI;
  url: string;
  /** Root entities: JSON-LD first, then microdata, then RDFa, each in document order. */
  entities: Entity[];
  meta: MetaEntry[];
  pairs: LabeledValue[];
  records: RecordTable[];
}

export async function readPageSources(rawHtml: string, url: string): Promise<PageSources> {
  const $ = cheerio.load(rawHtml);
  const base = baseUrlOf($('base[href]').first().attr('href'), url);
  const [microdata, rdfa] = await Promise.all([microdataEntities(rawHtml, base), rdfaEntities(rawHtml, base)]);
  const meta = metaEntries($, base);
  const lang = $('html').attr('lang')?.trim();
  if (lang) meta.push({ key: 'lang', value: lang, source: 'meta', evidence: snippet(`<html lang="${lang}">`) });
  const { pairs, records } = tableSignals($);
  return { $, url, entities: [...jsonLdEntities($), ...microdata, ...rdfa], meta, pairs, records };
}
