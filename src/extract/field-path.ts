/** Paths into a result as notes name them: `offers.price`, `items[2].name`; '' is the whole object. */

/** `offers[0].price` → ['offers', 0, 'price']. */
export function parsePath(path: string): (string | number)[] {
  const parts: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) parts.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return parts;
}

export function getPath(data: unknown, path: string): unknown {
  let at: unknown = data;
  for (const part of parsePath(path)) at = at !== null && typeof at === 'object' ? (at as Record<string | number, unknown>)[part] : undefined;
  return at;
}

/** A property's path under its parent's. */
export function childPath(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

/** Whether `path` is `prefix` or lies under it. */
export function isWithin(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
}
