/** A backtick fence longer than any backtick run in `text`, so the content cannot close it early. */
export function markdownFence(text: string): string {
  return '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
}
