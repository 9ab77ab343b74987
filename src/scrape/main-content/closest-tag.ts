/**
 * `closest` by tag name. Linkedom's `closest` (like its `matches` and `querySelectorAll`)
 * compiles its selector on every call, and the main-content rules ask it of nearly every
 * element of a page: 250,000 compiles on the 280 WCXB pages (docs/benchmarks.md).
 */

/** The element itself or its nearest ancestor whose tag is one of `tags`. */
export function closestTag(element: Element | null | undefined, tags: ReadonlySet<string>): Element | null {
  for (let at = element ?? null; at; at = at.parentElement) if (tags.has(at.localName)) return at;
  return null;
}

/** The element itself or its nearest ancestor that is a link with an address (`closest('a[href]')`). */
export function closestLink(element: Element): Element | null {
  for (let at: Element | null = element; at; at = at.parentElement) if (at.localName === 'a' && at.hasAttribute('href')) return at;
  return null;
}
