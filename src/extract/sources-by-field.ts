/** v2's `sources`: per field, the pages its value came from (from the confidence notes). */
export function sourcesByField(notes: readonly { path: string; url?: string | undefined }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const note of notes) {
    if (!note.path || !note.url) continue;
    const urls = (out[note.path] ??= []);
    if (!urls.includes(note.url)) urls.push(note.url);
  }
  return out;
}
