import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { snippet } from '../extraction-result';

/** A label and its value: a `<th>`/`<td>` row of a spec table, or a `<dt>`/`<dd>` pair. */
export interface LabeledValue {
  label: string;
  value: string;
  /** List items of the value cell, when it is a list. */
  items?: string[];
  source: 'table' | 'definition-list';
  evidence: string;
}

/** A table with a header row: one record per body row. */
export interface RecordTable {
  headers: string[];
  rows: { cells: string[]; evidence: string }[];
}

export interface TableSignals {
  pairs: LabeledValue[];
  records: RecordTable[];
}

const text = ($el: Cheerio<Element>) => $el.text().replace(/\s+/g, ' ').trim();

function listItems($: CheerioAPI, $cell: Cheerio<Element>): string[] | undefined {
  const items = $cell.find('li').map((_, li) => text($(li))).get().filter(Boolean);
  return items.length > 1 ? items : undefined;
}

/**
 * Spec tables (label cell, value cell), data tables (a header row over records) and definition
 * lists. Layout tables that hold other tables are skipped.
 */
export function tableSignals($: CheerioAPI): TableSignals {
  const pairs: LabeledValue[] = [];
  const records: RecordTable[] = [];
  $('table').each((_, table) => {
    const $table = $(table);
    if ($table.find('table').length > 0) return;
    const rows = $table.find('tr').filter((_, tr) => $(tr).closest('table').is(table)).toArray();
    const cellsOf = (tr: Element) => $(tr).children('th, td').toArray();
    const first = rows[0] ? cellsOf(rows[0]) : [];
    const headerRow = first.length >= 2 && first.every((c) => c.tagName === 'th') ? rows[0] : undefined;
    const body = headerRow ? rows.slice(1) : rows;
    if (headerRow && first.length > 2) {
      records.push({
        headers: first.map((c) => text($(c))),
        rows: body.map((tr) => ({ cells: cellsOf(tr).map((c) => text($(c))), evidence: snippet(cellsOf(tr).map((c) => text($(c))).join(' | ')) })),
      });
      return;
    }
    for (const tr of body) {
      const cells = cellsOf(tr);
      if (cells.length !== 2) continue;
      const label = text($(cells[0]!)).replace(/:$/, '');
      const value = text($(cells[1]!));
      if (!label || !value || label.length > 80) continue;
      const items = listItems($, $(cells[1]!));
      pairs.push({ label, value, ...(items && { items }), source: 'table', evidence: snippet(`${label} | ${value}`) });
    }
  });
  $('dl').each((_, dl) => {
    let label: string | undefined;
    $(dl)
      .find('dt, dd')
      .filter((_, el) => $(el).closest('dl').is(dl))
      .each((_, el) => {
        const $el = $(el);
        if (el.tagName === 'dt') label = text($el).replace(/:$/, '');
        else if (label) {
          const value = text($el);
          const items = listItems($, $el);
          if (value) pairs.push({ label, value, ...(items && { items }), source: 'definition-list', evidence: snippet(`${label}: ${value}`) });
        }
      });
  });
  return { pairs, records };
}
