import { nameWords, SchemaReader, type JsonSchema } from '../json-schema/json-schema';
import { urlKey } from '../url/normalize-url';

/** Most pages a run without an LLM follows from the pages it was given: one hop, same site. */
export const AGENT_FOLLOWED_PAGES = 5;

/** Words a prompt uses to ask for many items rather than one. */
const LIST_WORDS = /\b(all|every|each|list|lists|listing)\b/i;
/** Words too common to tell one link from another. */
const STOPWORDS = new Set(['the', 'and', 'with', 'for', 'from', 'that', 'this', 'its', 'their', 'what', 'which', 'find', 'get', 'give', 'all', 'every', 'each', 'list', 'lists', 'page', 'pages', 'http', 'https', 'www', 'com', 'html']);

/**
 * Whether the request asks for a list, so the pages it names are likely indexes of the items:
 * the schema has an array of objects (at its top level or as a property, at any depth), or the
 * prompt asks for all, every, each or a list.
 */
export function callsForList(prompt: string, schema: JsonSchema | undefined): boolean {
  if (LIST_WORDS.test(prompt)) return true;
  if (!schema) return false;
  const reader = new SchemaReader(schema);
  const hasList = (node: unknown, depth: number): boolean => {
    const view = reader.view(node);
    if (view.kind === 'array') return reader.view(view.items).kind === 'object';
    return depth < 4 && view.kind === 'object' && Object.values(view.properties).some((p) => hasList(p, depth + 1));
  };
  return hasList(schema, 0);
}

/** The words a link's text or URL is scored against: the prompt's and the schema's property names. */
export function relevanceWords(prompt: string, schema: JsonSchema | undefined): Set<string> {
  const names: string[] = [];
  const walk = (node: unknown, depth: number) => {
    if (!node || typeof node !== 'object' || depth > 4) return;
    const { properties, items } = node as { properties?: Record<string, unknown>; items?: unknown };
    for (const [name, sub] of Object.entries(properties ?? {})) {
      names.push(name);
      walk(sub, depth + 1);
    }
    walk(items, depth + 1);
  };
  walk(schema, 0);
  return new Set([...nameWords(prompt), ...names.flatMap(nameWords)].flatMap(stems).filter((w) => w.length > 2 && !STOPWORDS.has(w)));
}

/** A word and its singular, so "products" in a prompt matches "/product/" in a URL. */
function stems(word: string): string[] {
  return word.length > 3 && word.endsWith('s') ? [word, word.slice(0, -1)] : [word];
}

export interface LinkingPage {
  url: string;
  markdown: string | null;
  links: string[] | null;
}

export interface FollowedLink {
  url: string;
  urlKey: string;
  /** The link's text on the page that links to it ('' when it has none). */
  text: string;
  score: number;
}

/** `[text](url)` in a page's markdown, resolved against the page: each linked URL's text. */
function linkTexts(page: LinkingPage): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of (page.markdown ?? '').matchAll(/(?<!!)\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    try {
      const key = urlKey(new URL(m[2]!, page.url).href);
      if (!out.has(key)) out.set(key, m[1]!.replace(/[*_`]+/g, '').trim());
    } catch {
      // Not a URL: not a link to follow.
    }
  }
  return out;
}

/** A URL's path as words are read from it; a malformed escape is read as it stands. */
function decodedPath(url: URL): string {
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return url.pathname;
  }
}

const siteOf = (host: string) => host.toLowerCase().replace(/^www\./, '');

/**
 * The links worth following from the pages read: on the same site as the page that links to them
 * (its host, `www.` aside), not read already, scored by how many of `words` their text and URL
 * path share; only links that share one, best first, at most `limit`.
 */
export function pickLinks(from: readonly LinkingPage[], words: ReadonlySet<string>, read: ReadonlySet<string>, limit: number): FollowedLink[] {
  const seen = new Set(read);
  const candidates: FollowedLink[] = [];
  for (const page of from) {
    const site = siteOf(new URL(page.url).hostname);
    const texts = linkTexts(page);
    for (const link of page.links ?? []) {
      let target: URL;
      try {
        target = new URL(link, page.url);
      } catch {
        continue;
      }
      if (!/^https?:$/.test(target.protocol) || siteOf(target.hostname) !== site) continue;
      const key = urlKey(target.href);
      if (seen.has(key)) continue;
      seen.add(key);
      const text = texts.get(key) ?? '';
      const linkWords = new Set([...nameWords(text), ...nameWords(decodedPath(target))].flatMap(stems));
      const score = [...words].filter((w) => linkWords.has(w)).length;
      if (score > 0) candidates.push({ url: target.href, urlKey: key, text, score });
    }
  }
  // A stable sort: equal scores keep the order the pages list them in.
  return candidates.sort((a, b) => b.score - a.score).slice(0, limit);
}
