/** Enough of one JSON-LD block to type the page; larger ones are product feeds or app state. */
const MAX_BLOCK = 1_000_000;
const MAX_DEPTH = 4;

/** The parsed JSON-LD blocks of a page, skipping the ones that are not valid JSON. */
export function parseJsonLd(blocks: readonly string[]): unknown[] {
  const parsed: unknown[] = [];
  for (const block of blocks) {
    if (block.length > MAX_BLOCK) continue;
    try {
      parsed.push(JSON.parse(block));
    } catch {
      // Sites ship broken JSON-LD often enough; it says nothing then.
    }
  }
  return parsed;
}

function typeNames(value: unknown): string[] {
  const names = Array.isArray(value) ? value : [value];
  return names.filter((n): n is string => typeof n === 'string').map((n) => n.replace(/^.*[/#:]/, ''));
}

/**
 * The JSON-LD objects reachable from the top-level blocks through the values `next` picks (each
 * array or object a level deeper), down to `maxDepth` levels.
 */
export function jsonLdNodes(jsonLd: readonly unknown[], next: (node: Record<string, unknown>) => unknown[], maxDepth = MAX_DEPTH): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth > maxDepth || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    found.push(record);
    for (const value of next(record)) visit(value, depth + 1);
  };
  for (const block of jsonLd) visit(block, 0);
  return found;
}

/**
 * schema.org type names the page declares about itself: JSON-LD `@type`s of top-level nodes,
 * `@graph` members and their main entity, and microdata `itemtype`s. Nested values (an
 * article's author, a product's offers) are not the page's type and are not read.
 */
export function schemaTypes(jsonLd: readonly unknown[], itemTypes: readonly string[]): string[] {
  const found = jsonLdNodes(jsonLd, (record) => [record['@graph'], record.mainEntity]).flatMap((record) => typeNames(record['@type']));
  for (const itemType of itemTypes) for (const t of itemType.split(/\s+/)) if (t) found.push(...typeNames(t));
  return found;
}
