import type TurndownService from 'turndown';
import { caption, cellText, divider, emptyHeader, span, tableLayout, type TableLayout } from '../../../src/scrape/html/gfm-table';

/**
 * GitHub-flavoured markdown tables as turndown rules, for the peers: the same table shape as the
 * service's (src/scrape/html/gfm-table.ts), linear in the size of the table. The table rules of
 * @joplin/turndown-plugin-gfm re-read `table.rows` for every cell of the heading row, which
 * made a page with a few long tables spend most of its time there.
 */
const layouts = new WeakMap<Element, TableLayout>();

function tableOf(node: Node): Element | null {
  for (let n = node.parentNode; n; n = n.parentNode) if (n.nodeName === 'TABLE') return n as Element;
  return null;
}

function layout(table: Element): TableLayout {
  let known = layouts.get(table);
  if (!known) layouts.set(table, (known = tableLayout(table)));
  return known;
}

export function gfmTables(service: TurndownService): void {
  service.addRule('gfmTableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const table = tableOf(node);
      return table && !layout(table).flat ? cellText(content, span(node as Element)) : content;
    },
  });
  service.addRule('gfmTableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const table = tableOf(node);
      if (!table || layout(table).flat) return content;
      const t = layout(table);
      const row = `|${content}`;
      if (node === t.heading) return `\n${row}\n${divider(t)}`;
      if (node === t.rows[0]) return `\n${emptyHeader(t)}\n${divider(t)}\n${row}`;
      return `\n${row}`;
    },
  });
  service.addRule('gfmTableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  service.addRule('gfmTableCaption', { filter: ['caption', 'colgroup', 'col'], replacement: () => '' });
  service.addRule('gfmTable', {
    filter: 'table',
    replacement: (content, node) => {
      const t = layout(node as Element);
      const title = caption(node as Element);
      const body = t.flat ? content.trim() : content.replace(/\n+/g, '\n').trim();
      return `\n\n${title ? `${title}\n\n` : ''}${body}\n\n`;
    },
  });
}
