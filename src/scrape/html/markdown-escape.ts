/**
 * Backslash escapes for page text that would otherwise read as markdown syntax: emphasis,
 * code, links and backslashes anywhere; list, heading, quote, rule and fence markers where they
 * open the text (after its leading whitespace, which the converter drops). The same set as
 * turndown's, so markdown keeps the escapes it had; the native converter's own escaping is
 * either off or far broader (it escapes every `+`, `=`, `.` and `,` too).
 */
const ESCAPES: readonly [RegExp, string][] = [
  [/\\/g, '\\\\'],
  [/\*/g, '\\*'],
  [/^-/, '\\-'],
  [/^\+ /, '\\+ '],
  [/^(=+)/, '\\$1'],
  [/^(#{1,6}) /, '\\$1 '],
  [/`/g, '\\`'],
  [/^~~~/, '\\~~~'],
  [/\[/g, '\\['],
  [/\]/g, '\\]'],
  [/^>/, '\\>'],
  [/_/g, '\\_'],
  [/^(\d+)\. /, '$1\\. '],
];

/** Any text an escape would change. Most text nodes contain none of these, and skip the dozen replaces. */
const ESCAPABLE = /[\\*`[\]_]|^\s*(?:[-=>]|\+ |#{1,6} |~~~|\d+\. )/;

export function escapeMarkdown(text: string): string {
  if (!ESCAPABLE.test(text)) return text;
  const lead = /^\s*/.exec(text)![0];
  return lead + ESCAPES.reduce((escaped, [pattern, replacement]) => escaped.replace(pattern, replacement), text.slice(lead.length));
}
