/**
 * Natural-language schedules ("every 30 minutes", "daily at 9:00", "every monday at 8am") turned
 * into the five-field cron a monitor runs on. A small grammar on purpose: what it does not read
 * is refused with the forms it does, never guessed at.
 */

export class ScheduleTextError extends Error {}

/** The forms understood, for the refusal's message. */
export const UNDERSTOOD_FORMS = [
  'every minute',
  'every N minutes',
  'every half hour',
  'hourly / every hour',
  'every N hours',
  'daily / every day [at TIME]',
  'twice a day',
  'every N days [at TIME]',
  'every weekday [at TIME]',
  'every weekend [at TIME]',
  'every monday … every sunday [at TIME]',
  'weekly [on DAY] [at TIME]',
  'monthly [at TIME]',
];

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** `9`, `9:30`, `09:30`, `9am`, `9:30 pm`, `21:15`, `noon`, `midnight` → [hour, minute]. */
function parseTime(text: string): [number, number] {
  if (text === 'noon') return [12, 0];
  if (text === 'midnight') return [0, 0];
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/.exec(text);
  if (!m) throw new ScheduleTextError(`"${text}" is not a time of day (say 9:00, 9am, 21:15, noon)`);
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  const half = m[3]?.[0];
  if (half && (hour < 1 || hour > 12)) throw new ScheduleTextError(`"${text}": with am/pm the hour is 1-12`);
  if (half === 'a' && hour === 12) hour = 0;
  if (half === 'p' && hour !== 12) hour += 12;
  if (hour > 23 || minute > 59) throw new ScheduleTextError(`"${text}" is not a time of day`);
  return [hour, minute];
}

/** A day name, its plural, or its three-letter short form → 0 (Sunday) to 6. */
function dayNumber(word: string): number | undefined {
  const w = word.replace(/s$/, '');
  const i = DAYS.findIndex((d) => d === w || d.slice(0, 3) === w);
  return i >= 0 ? i : undefined;
}

function count(text: string, what: string, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new ScheduleTextError(`every N ${what}: N must be 1-${max}, not ${text}`);
  return n;
}

/** The cron of a schedule text; throws ScheduleTextError naming what is understood. */
export function cronFromText(input: string): string {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ').replace(/[.!]$/, '');
  // "… at TIME" applies to the day-level forms; split it off first.
  const at = /^(.*?)\s+at\s+(.+)$/.exec(text);
  const head = (at ? at[1]! : text).replace(/^every\s+/, 'every ');
  const [hour, minute] = at ? parseTime(at[2]!) : [0, 0];
  const timed = (rest: string) => `${minute} ${hour} ${rest}`;
  const unlessTimed = (cron: string) => {
    if (at) throw new ScheduleTextError(`"${input}": "at TIME" goes with daily, weekly, monthly and weekday schedules`);
    return cron;
  };

  let m: RegExpExecArray | null;
  if (/^(every minute|every 1 min(ute)?s?|minutely)$/.test(head)) return unlessTimed('* * * * *');
  if ((m = /^every (\d+) min(ute)?s?$/.exec(head))) return unlessTimed(`*/${count(m[1]!, 'minutes', 59)} * * * *`);
  if (/^every (half hour|half an hour|30 min(ute)?s?)$/.test(head)) return unlessTimed('*/30 * * * *');
  if (/^(hourly|every hour|every 1 hours?)$/.test(head)) return unlessTimed('0 * * * *');
  if ((m = /^every (\d+) hours?$/.exec(head))) return unlessTimed(`0 */${count(m[1]!, 'hours', 23)} * * *`);
  if (/^(daily|every day|each day|every 1 days?)$/.test(head)) return timed('* * *');
  if (/^(twice a day|twice daily)$/.test(head)) return unlessTimed('0 0,12 * * *');
  if ((m = /^every (\d+) days?$/.exec(head))) return timed(`*/${count(m[1]!, 'days', 31)} * *`);
  if (/^(every weekday|weekdays|on weekdays)$/.test(head)) return timed('* * 1-5');
  if (/^(every weekend|weekends|on weekends)$/.test(head)) return timed('* * 0,6');
  if ((m = /^(?:weekly(?: on)?|every week(?: on)?|every|on) (\w+)$/.exec(head)) && dayNumber(m[1]!) !== undefined) return timed(`* * ${dayNumber(m[1]!)}`);
  if ((m = /^(\w+)$/.exec(head)) && /s$/.test(m[1]!) && dayNumber(m[1]!) !== undefined) return timed(`* * ${dayNumber(m[1]!)}`);
  if (/^(weekly|every week)$/.test(head)) return timed('* * 0');
  if (/^(monthly|every month)$/.test(head)) return timed('1 * *');
  throw new ScheduleTextError(`Could not read the schedule "${input}". Understood: ${UNDERSTOOD_FORMS.map((f) => `"${f}"`).join(', ')}; TIME is like 9:00, 9am or 21:15. Or give schedule.cron, a five-field cron expression.`);
}
