const BLOCK = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DETAILS', 'DIALOG', 'DIV', 'DL', 'FIELDSET',
  'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HGROUP', 'HR',
  'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'UL',
]);
/** Elements that end a line but do not open a paragraph. */
const LINE = new Set(['LI', 'TR', 'DT', 'DD', 'OPTION']);

const PRE_NEWLINE = '\u2028';

/**
 * Plain text the way a reader sees it: blocks on their own lines, table cells tab-separated,
 * whitespace inside a block collapsed, `<pre>` kept verbatim.
 */
export function toText(root: Element): string {
  const out: string[] = [];
  const walk = (node: Node, pre: boolean): void => {
    if (node.nodeType === 3) {
      const value = (node as Text).data;
      // Newlines inside <pre> are parked as U+2028 so that line trimming below leaves them be.
      out.push(pre ? value.replace(/\n/g, PRE_NEWLINE) : value.replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== 1) return;
    const name = node.nodeName;
    if (name === 'BR') {
      out.push('\n');
      return;
    }
    const block = BLOCK.has(name);
    if (block) out.push('\n');
    if (name === 'TD' || name === 'TH') out.push('\t');
    const inPre = pre || name === 'PRE';
    // Siblings by pointer: the DOM builds a childNodes array on demand for every element asked.
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child, inPre);
    if (block || LINE.has(name)) out.push('\n');
  };
  walk(root, false);
  return out
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .replaceAll(PRE_NEWLINE, '\n');
}
