/**
 * Markdown to the text a reader sees, so markdown output can be scored against plain-text ground
 * truth (the WCXB rule: drop link targets and markup first). Word scoring counts `\w+` tokens,
 * so what matters most is that no URL, image, tag, code-fence language, list number or emphasis
 * underscore adds or glues words; the other markup characters go for readability.
 */
export function markdownToPlain(markdown: string): string {
  return (
    markdown
      // Images are not text (alt included: plain-text extractors drop it too).
      .replace(/!\[[^\]]*\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+(?:"[^"]*"|'[^']*'))?\)/g, '')
      // Link targets, then reference definitions and reference labels.
      .replace(/\]\((?:<[^>]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:"[^"]*"|'[^']*'))?\)/g, ']')
      .replace(/^ {0,3}\[[^\]]+\]:[ \t]*\S.*$/gm, '')
      .replace(/\]\[[^\]]*\]/g, ']')
      // Autolinks show their URL; any other tag is markup.
      .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
      .replace(/<\/?[a-zA-Z][^<>]*>/g, '')
      // Fence lines (with their language), setext underlines, then line-leading markers.
      .replace(/^[ \t]*(?:`{3,}|~{3,}).*$/gm, '')
      .replace(/^[ \t]*(?:=+|-+)[ \t]*$/gm, '')
      .replace(/^ {0,3}(?:#{1,6}[ \t]+|>+ ?)/gm, '')
      .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, '')
      // Emphasis underscores (not intraword ones, nor escaped literals).
      .replace(/(?<!\\)(?:(?<![\p{L}\p{N}_])_+|_+(?![\p{L}\p{N}_]))/gu, '')
      .replace(/\\([!-/:-@[-`{-~])/g, '$1')
      .replace(/[*`|#[\]~]/g, ' ')
      .replace(/[ \t]+/g, ' ')
  );
}
