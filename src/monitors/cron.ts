/**
 * Five-field cron expressions (minute, hour, day of month, month, day of week), as a monitor's
 * schedule takes them. Checked here so a bad one gets a 400 that says which field is wrong,
 * before Temporal sees it; month and weekday names are written as numbers, the form Temporal's
 * parser and every reader know.
 */

interface Field {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly Field[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day of week', min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

export class CronError extends Error {}

/** A parsed expression: the values each field allows, and whether day fields were restricted. */
export interface Cron {
  /** The expression as stored and returned: five fields, single spaces, names as numbers. */
  expression: string;
  values: Set<number>[];
  /** Day of month and day of week are both restricted: a day matches either (cron's rule). */
  eitherDay: boolean;
}

function number(text: string, field: Field): number {
  const named = field.names?.indexOf(text.toLowerCase()) ?? -1;
  const n = named >= 0 ? named + field.min : /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < field.min || n > field.max) {
    throw new CronError(`the ${field.name} field allows ${field.min}-${field.max}${field.names ? ` or ${field.names[0]!.toUpperCase()}-${field.names.at(-1)!.toUpperCase()}` : ''}, not "${text}"`);
  }
  return n;
}

/** One field: `*`, `a`, `a-b`, each optionally `/step`, in a comma list. Answers its values and its normal form. */
function parseField(text: string, field: Field): { values: Set<number>; normal: string } {
  const values = new Set<number>();
  const parts = text.split(',').map((part) => {
    const [range, stepText, extra] = part.split('/');
    if (extra !== undefined || range === '' || stepText === '') throw new CronError(`the ${field.name} field "${text}" is not a cron field`);
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1 || step > field.max) throw new CronError(`the ${field.name} field's step "${stepText}" must be 1-${field.max}`);
    let from = field.min;
    let to = field.max;
    let normalRange = '*';
    if (range !== '*') {
      const [a, b, more] = range!.split('-');
      if (more !== undefined || a === '' || b === '') throw new CronError(`the ${field.name} field "${text}" is not a cron field`);
      from = number(a!, field);
      to = b === undefined ? (stepText === undefined ? from : field.max) : number(b, field);
      if (to < from) throw new CronError(`the ${field.name} range "${range}" runs backwards`);
      normalRange = b === undefined ? String(from) : `${from}-${to}`;
    }
    for (let v = from; v <= to; v += step) values.add(v);
    return stepText === undefined ? normalRange : `${normalRange}/${step}`;
  });
  return { values, normal: parts.join(',') };
}

/** Parses and normalises a five-field cron expression; throws CronError naming the bad field. */
export function parseCron(expression: string): Cron {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) throw new CronError(`a cron expression has five fields (minute hour day-of-month month day-of-week); "${expression}" has ${fields.length}`);
  const parsed = fields.map((text, i) => parseField(text, FIELDS[i]!));
  return {
    expression: parsed.map((p) => p.normal).join(' '),
    values: parsed.map((p) => p.values),
    eitherDay: fields[2] !== '*' && fields[4] !== '*',
  };
}

/** Whether the expression fires at this minute (read in UTC). */
function firesAt(cron: Cron, at: Date): boolean {
  const [minute, hour, dom, month, dow] = cron.values as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  if (!minute.has(at.getUTCMinutes()) || !hour.has(at.getUTCHours()) || !month.has(at.getUTCMonth() + 1)) return false;
  const byDate = dom.has(at.getUTCDate());
  const byWeekday = dow.has(at.getUTCDay());
  return cron.eitherDay ? byDate || byWeekday : byDate && byWeekday;
}

/** Runs in a 30-day month (January 2026, minute by minute): what a monthly estimate multiplies. */
export function runsPerMonth(cron: Cron): number {
  let runs = 0;
  const start = Date.UTC(2026, 0, 1);
  for (let minute = 0; minute < 30 * 24 * 60; minute++) if (firesAt(cron, new Date(start + minute * 60_000))) runs++;
  return runs;
}
