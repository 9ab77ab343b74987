/**
 * Where lazy-loading scripts keep an image's real address until it scrolls into view
 * (lazysizes, WP Rocket, jQuery Lazy Load and their kin), in the order they are looked at. A
 * client that runs no scripts sees only the placeholder in `src`.
 */
export const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original'] as const;
export const LAZY_SRCSET = ['data-srcset', 'data-lazy-srcset'] as const;

const isPlaceholder = (src: string | null): boolean => !src?.trim() || src.trimStart().startsWith('data:');

const lazyValue = (element: Element, names: readonly string[]): string | undefined => {
  for (const name of names) {
    const value = element.getAttribute(name)?.trim();
    if (value && !value.startsWith('data:')) return value;
  }
  return undefined;
};

/** Whether an `<img>` or `<source>` names its real image in a lazy-loading attribute. */
export function hasLazySource(element: Element): boolean {
  return lazyValue(element, LAZY_SRCSET) !== undefined || lazyValue(element, LAZY_SRC) !== undefined;
}

/**
 * Puts a lazy-loaded image's real address where a browser that ran the page's scripts would
 * have it: its `srcset` and `src` take the lazy attributes' values when they hold a placeholder
 * (nothing, or a `data:` URI: a blank GIF, an empty SVG), or when the element's class says it
 * loads lazily. An image with a real `src` of its own keeps it.
 */
export function adoptLazySource(element: Element): void {
  const lazyClass = /lazy/i.test(element.getAttribute('class') ?? '');
  const srcset = lazyValue(element, LAZY_SRCSET);
  if (srcset && (lazyClass || isPlaceholder(element.getAttribute('srcset')))) element.setAttribute('srcset', srcset);
  const src = lazyValue(element, LAZY_SRC);
  if (src && (lazyClass || isPlaceholder(element.getAttribute('src')))) element.setAttribute('src', src);
}
