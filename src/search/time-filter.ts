/** Google-style `tbs` time filters, as Firecrawl's search accepts them. */
export const TBS_PATTERN = /^(qdr:[hdwmy]\d*|cdr:1,cd_min:\d{1,2}\/\d{1,2}\/\d{4},cd_max:\d{1,2}\/\d{1,2}\/\d{4})$/;

export type TimeUnit = 'h' | 'd' | 'w' | 'm' | 'y';

/** A parsed `tbs`: the last `count` units (`qdr:w2`), or a custom date range (`cdr:1,...`). */
export type TimeFilter = { kind: 'recent'; unit: TimeUnit; count: number } | { kind: 'range'; from: Date; to: Date };

const UNIT_MS: Record<TimeUnit, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000, m: 30 * 86_400_000, y: 365 * 86_400_000 };

/** Parses a `tbs` the request schema already checked against TBS_PATTERN. */
export function parseTimeFilter(tbs: string): TimeFilter {
  const recent = /^qdr:([hdwmy])(\d*)$/.exec(tbs);
  if (recent) return { kind: 'recent', unit: recent[1] as TimeUnit, count: Math.max(1, Number(recent[2] || 1)) };
  const [, min, max] = /cd_min:([\d/]+),cd_max:([\d/]+)/.exec(tbs)!;
  const date = (mdy: string, endOfDay: boolean) => {
    const [m, d, y] = mdy.split('/').map(Number);
    return new Date(Date.UTC(y!, m! - 1, d!, endOfDay ? 23 : 0, endOfDay ? 59 : 0, endOfDay ? 59 : 0));
  };
  return { kind: 'range', from: date(min!, false), to: date(max!, true) };
}

/** The absolute window a filter means at `now`. */
export function timeWindow(filter: TimeFilter, now: number): { from: Date; to: Date } {
  if (filter.kind === 'range') return { from: filter.from, to: filter.to };
  return { from: new Date(now - UNIT_MS[filter.unit] * filter.count), to: new Date(now) };
}
