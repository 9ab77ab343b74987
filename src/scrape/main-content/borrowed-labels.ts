/**
 * A link that takes its name from another element (`aria-labelledby`) and prints the same words:
 * a card's overlay link, stretched over the card so that all of it is clickable and named by the
 * card's title. Read out, the card would say its title twice; the title stays.
 */
const squash = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** Removes, in place, the links under `root` whose words are those of the elements that name them. */
export function dropBorrowedLabels(root: Element): void {
  const links = [...root.querySelectorAll('a[aria-labelledby]')];
  if (links.length === 0) return;
  // One pass over the ids: a lookup per link would walk the document each time.
  const byId = new Map<string, Element>();
  for (const element of root.querySelectorAll('[id]')) byId.set(element.getAttribute('id')!, element);
  for (const link of links) {
    const names = (link.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean).map((id) => byId.get(id));
    if (names.length === 0 || names.some((name) => name === undefined || link.contains(name))) continue;
    const text = squash(link.textContent);
    if (text && text === squash(names.map((name) => name!.textContent).join(' '))) link.remove();
  }
}
