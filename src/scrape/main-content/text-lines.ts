/** Text with its whitespace collapsed, as it reads on screen. */
export const squash = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();

/** A node's text as it reads on screen, whitespace collapsed: its length. */
export function visibleLength(node: Node | null | undefined): number {
  return squash(node?.textContent).length;
}

/** Markup inside a line of text: a label with a link, an icon or emphasis in it is still one line. */
const PHRASING = new Set(['a', 'abbr', 'b', 'bdi', 'cite', 'data', 'em', 'i', 'img', 'mark', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'br']);

/** An element that holds one line of text: none of its children is a block. */
export function oneLine(element: Element): boolean {
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) if (!PHRASING.has(child.localName)) return false;
  return true;
}

/** `question`, answered once per element: for a pass that asks it of the same element again and again. */
export function answeredOnce<T>(question: (element: Element) => T): (element: Element) => T {
  const answers = new Map<Element, T>();
  return (element) => {
    if (!answers.has(element)) answers.set(element, question(element));
    return answers.get(element) as T;
  };
}

/**
 * `oneLine`, answered once per element: a pass that asks it of each element and of its parent
 * would otherwise walk every parent's children once per child.
 */
export const oneLineOnce = (): ((element: Element) => boolean) => answeredOnce(oneLine);

/** `visibleLength` once per element: a pass over many links' ancestors would otherwise read a large section's text once per link inside it. */
export const visibleLengthOnce = (): ((element: Element) => number) => answeredOnce(visibleLength);

/**
 * An element that is a whole line, not a word or link inside one: its inline wrappers and the
 * inline neighbours up to the next block or `<br>` add no text (`<p>click <b>Join</b>.</p>` is a
 * sentence; a link under a heading and a paragraph is a line of its own).
 */
export function wholeLine(element: Element): boolean {
  if (!PHRASING.has(element.localName)) return true;
  let top = element;
  while (top.parentElement && PHRASING.has(top.parentElement.localName)) top = top.parentElement;
  if (visibleLength(top) !== visibleLength(element)) return false;
  const silent = (node: ChildNode | null, step: (node: ChildNode) => ChildNode | null): boolean => {
    for (; node; node = step(node)) {
      if (node.nodeType === 1 && (!PHRASING.has((node as Element).localName) || (node as Element).localName === 'br')) return true;
      if ((node.textContent ?? '').trim()) return false;
    }
    return true;
  };
  return silent(top.previousSibling, (node) => node.previousSibling) && silent(top.nextSibling, (node) => node.nextSibling);
}

/**
 * Removes, in place, the one-line elements under `root` whose text (whitespace collapsed) is at
 * most `maxLength` long and that `matches` picks.
 */
export function dropLines(root: Element, maxLength: number, matches: (text: string, element: Element) => boolean): void {
  for (const element of [...root.querySelectorAll('*')]) {
    if (!root.contains(element) || !oneLine(element)) continue;
    const text = squash(element.textContent);
    if (text && text.length <= maxLength && matches(text, element)) element.remove();
  }
}
