/**
 * GitHub-flavoured markdown tables from a table element, linear in the size of the table: each
 * table's rows are read once. The shape: a header row (an empty one when the table has none), a
 * divider with the header cells' alignment, pipes escaped, line breaks as <br>, colspans padded,
 * cells padded to the divider's three characters. A table that holds another table, or a single
 * cell, is layout, not data: its cells are emitted as blocks of plain content.
 */

export interface TableLayout {
  rows: Element[];
  columns: number;
  /** The first row, when it is a heading row (in <thead>, or all <th>). */
  heading: Element | null;
  /** A layout table: its cells are emitted as plain content. */
  flat: boolean;
}

const DIVIDER: Record<string, string> = { left: ':---', right: '---:', center: ':---:' };

function tableOf(node: Node): Element | null {
  for (let n = node.parentNode; n; n = n.parentNode) if (n.nodeName === 'TABLE') return n as Element;
  return null;
}

export function span(cell: Element): number {
  return Math.max(1, Number(cell.getAttribute('colspan')) || 1);
}

export function cells(row: Element): Element[] {
  return Array.from(row.childNodes).filter((n): n is Element => n.nodeName === 'TD' || n.nodeName === 'TH');
}

export function tableLayout(table: Element): TableLayout {
  const rows = Array.from(table.getElementsByTagName('tr')).filter((row) => tableOf(row) === table);
  const first = rows[0];
  const heading = first && (first.parentNode?.nodeName === 'THEAD' || cells(first).every((c) => c.nodeName === 'TH')) ? first : null;
  return {
    rows,
    columns: Math.max(0, ...rows.map((row) => cells(row).reduce((sum, c) => sum + span(c), 0))),
    heading,
    flat: table.getElementsByTagName('table').length > 0 || (rows.length === 1 && cells(rows[0]!).length <= 1),
  };
}

/** One cell of a row, from its content's markdown: on one line, pipes escaped, padded. */
export function cellText(content: string, colspan: number): string {
  let text = content.trim().replace(/ *\r?\n/g, '<br>').replace(/\|/g, '\\|');
  while (text.length < 3) text += ' ';
  return ` ${text} |${'     |'.repeat(colspan - 1)}`;
}

function alignment(cell: Element | undefined): string {
  const value = (cell?.getAttribute('align') || (cell as HTMLElement | undefined)?.style?.textAlign || '').toLowerCase();
  return DIVIDER[value] ?? '---';
}

export function divider(table: TableLayout): string {
  const header = table.heading ? cells(table.heading) : [];
  const borders: string[] = [];
  for (const cell of header) for (let i = 0; i < span(cell); i++) borders.push(alignment(cell));
  while (borders.length < table.columns) borders.push('---');
  return `|${borders.map((b) => ` ${b} |`).join('')}`;
}

/** The header row of a table without one: GFM needs a header, and the first row is data. */
export function emptyHeader(table: TableLayout): string {
  return `|${'     |'.repeat(table.columns)}`;
}

export function caption(table: Element): string | undefined {
  return table.getElementsByTagName('caption')[0]?.textContent?.trim() || undefined;
}

/**
 * The markdown of a table, given the markdown of its cells' content (`convert` takes every cell
 * of the table at once and returns one string per cell, in order).
 */
export function gfmTable(table: Element, convert: (cells: Element[]) => string[]): string {
  const layout = tableLayout(table);
  const rowCells = layout.rows.map(cells);
  const contents = convert(rowCells.flat());
  let next = 0;
  let body: string;
  if (layout.rows.length === 0) {
    body = '';
  } else if (layout.flat) {
    body = contents.map((content) => content.trim()).filter(Boolean).join('\n\n');
  } else {
    const lines = rowCells.map((row) => `|${row.map((cell) => cellText(contents[next++] ?? '', span(cell))).join('')}`);
    body = layout.heading ? [lines[0], divider(layout), ...lines.slice(1)].join('\n') : [emptyHeader(layout), divider(layout), ...lines].join('\n');
  }
  const title = caption(table);
  return title ? `${title}\n\n${body}` : body;
}
