/**
 * The WCXB development sample (shared/corpora/wcxb-dev): 280 real pages saved from the web,
 * 40 of each of 7 page types, with their ground truth. Pages and ground truth by Murrough Foley
 * (2026), the Web Content Extraction Benchmark, CC-BY-4.0
 * (https://creativecommons.org/licenses/by/4.0/).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PAGE_TYPES, type PageType } from '../../src/db/page-metadata';

/** The corpus labels pages with the same seven types the service recognises. */
export { PAGE_TYPES };
export type WcxbPageType = PageType;

export interface WcxbPage {
  id: string;
  pageType: WcxbPageType;
  /** The URL the page was saved from. */
  url: string;
  /** The page as the site served it. */
  html: Buffer;
  /** The main content as plain text. */
  mainContent: string;
}

/** The machine's shared corpora, for a clone that does not sit beside them (a worktree, CI's clean clone). */
const MACHINE_WCXB_DIR = '/work/shared/corpora/wcxb-dev';

/** Where the sample sits: `WCXB_DIR`, else beside this repository (`../shared`), else the machine's copy. */
export function wcxbDir(): string {
  if (process.env.WCXB_DIR) return process.env.WCXB_DIR;
  const beside = path.resolve(__dirname, '../../../shared/corpora/wcxb-dev');
  return existsSync(beside) ? beside : MACHINE_WCXB_DIR;
}

/** Loads pages of a WCXB-shaped folder (`html/<id>.html.gz`, `ground-truth/<id>.json`, `pages.json`). */
export function loadWcxb(dir = wcxbDir(), ids?: readonly string[]): WcxbPage[] {
  if (!existsSync(path.join(dir, 'pages.json'))) throw new Error(`WCXB sample not found at ${dir}`);
  const index = JSON.parse(readFileSync(path.join(dir, 'pages.json'), 'utf8')) as Record<string, { page_type: WcxbPageType }>;
  const wanted = ids ?? readdirSync(path.join(dir, 'html')).map((f) => f.replace(/\.html\.gz$/, '')).sort();
  return wanted.map((id) => {
    const truth = JSON.parse(readFileSync(path.join(dir, 'ground-truth', `${id}.json`), 'utf8')) as {
      url: string;
      ground_truth: { main_content: string };
    };
    return {
      id,
      pageType: index[id]!.page_type,
      url: truth.url,
      html: gunzipSync(readFileSync(path.join(dir, 'html', `${id}.html.gz`))),
      mainContent: truth.ground_truth.main_content,
    };
  });
}
