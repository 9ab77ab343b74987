/** A node's text as it reads on screen, whitespace collapsed: its length. */
export function visibleLength(node: Node | null | undefined): number {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim().length;
}

/** Markup inside a line of text: a label with a link, an icon or emphasis in it is still one line. */
const PHRASING = new Set(['a', 'abbr', 'b', 'bdi', 'cite', 'data', 'em', 'i', 'img', 'mark', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'br']);

/** An element that holds one line of text: none of its children is a block. */
export function oneLine(element: Element): boolean {
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) if (!PHRASING.has(child.localName)) return false;
  return true;
}

/**
 * Removes, in place, the one-line elements under `root` whose text (whitespace collapsed) is at
 * most `maxLength` long and that `matches` picks.
 */
export function dropLines(root: Element, maxLength: number, matches: (text: string, element: Element) => boolean): void {
  for (const element of [...root.querySelectorAll('*')]) {
    if (!root.contains(element) || !oneLine(element)) continue;
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text && text.length <= maxLength && matches(text, element)) element.remove();
  }
}
