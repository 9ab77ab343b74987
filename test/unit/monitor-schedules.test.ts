import { describe, expect, it } from 'vitest';
import { CronError, parseCron, runsPerMonth } from '../../src/monitors/cron';
import { verdictOf } from '../../src/monitors/compare-pages';
import { cronFromText, ScheduleTextError } from '../../src/monitors/schedule-text';

describe('monitor schedules in words', () => {
  it.each([
    ['every minute', '* * * * *'],
    ['every 30 minutes', '*/30 * * * *'],
    ['Every 5 mins', '*/5 * * * *'],
    ['every half hour', '*/30 * * * *'],
    ['hourly', '0 * * * *'],
    ['every 2 hours', '0 */2 * * *'],
    ['daily', '0 0 * * *'],
    ['daily at 9:00', '0 9 * * *'],
    ['every day at 6:30pm', '30 18 * * *'],
    ['every monday at 8am', '0 8 * * 1'],
    ['mondays at noon', '0 12 * * 1'],
    ['weekly on friday at 17:45', '45 17 * * 5'],
    ['every weekday at 9:30', '30 9 * * 1-5'],
    ['every weekend', '0 0 * * 0,6'],
    ['twice a day', '0 0,12 * * *'],
    ['every 3 days at midnight', '0 0 */3 * *'],
    ['monthly at 12am', '0 0 1 * *'],
  ])('reads "%s" as %s', (text, cron) => {
    expect(cronFromText(text)).toBe(cron);
    expect(parseCron(cronFromText(text)).expression).toBe(cron);
  });

  it('refuses what it cannot read, naming what it can', () => {
    expect(() => cronFromText('when the tide turns')).toThrow(ScheduleTextError);
    expect(() => cronFromText('when the tide turns')).toThrow(/Understood: "every minute", "every N minutes"/);
    expect(() => cronFromText('every 90 minutes')).toThrow('every N minutes: N must be 1-59, not 90');
    expect(() => cronFromText('hourly at 9:00')).toThrow('"at TIME" goes with daily, weekly, monthly and weekday schedules');
    expect(() => cronFromText('daily at 25:00')).toThrow('not a time of day');
  });
});

describe('five-field cron', () => {
  it('normalises names to numbers and keeps the rest as written', () => {
    expect(parseCron('0  9 * JAN-MAR mon-fri').expression).toBe('0 9 * 1-3 1-5');
    expect(parseCron('*/15 8-18/2 1,15 * *').expression).toBe('*/15 8-18/2 1,15 * *');
  });

  it.each([
    ['61 * * * *', 'the minute field allows 0-59, not "61"'],
    ['* * *', 'has 3'],
    ['* 24 * * *', 'the hour field allows 0-23'],
    ['* * * * 7', 'the day of week field allows 0-6 or SUN-SAT, not "7"'],
    ['5-1 * * * *', 'runs backwards'],
    ['*/0 * * * *', "step \"0\" must be"],
  ])('refuses %s', (expression, message) => {
    expect(() => parseCron(expression)).toThrow(CronError);
    expect(() => parseCron(expression)).toThrow(message);
  });

  it('counts runs in a month for estimates', () => {
    expect(runsPerMonth(parseCron('*/30 * * * *'))).toBe(30 * 48);
    expect(runsPerMonth(parseCron('0 9 * * *'))).toBe(30);
    expect(runsPerMonth(parseCron('0 8 * * 1'))).toBe(4);
  });
});

describe('a check page verdict', () => {
  const copy = (markdown: string, json: unknown = null, statusCode = 200) => ({ markdown, json, statusCode });
  const before = (markdown: string, json: unknown = null, statusCode = 200) => ({ ...copy(markdown, json, statusCode), scrapedAt: new Date(0) });
  const markdownOnly = { diff: { text: true, json: false } };
  const jsonOnly = { diff: { text: false, json: true } };

  it('is new without a snapshot, an error for a first copy that is gone', () => {
    expect(verdictOf(markdownOnly, copy('a'), undefined)).toEqual({ status: 'new' });
    expect(verdictOf(markdownOnly, copy('gone', null, 404), undefined)).toEqual({ status: 'error' });
  });

  it('diffs markdown git-style, with its parsed form', () => {
    const v = verdictOf(markdownOnly, copy('one\ntwo\nthree'), before('one\n2\nthree'));
    expect(v.status).toBe('changed');
    expect('diff' in v && v.diff).toMatchObject({ text: expect.stringContaining('-2\n+two'), json: { files: [expect.objectContaining({ additions: 1, deletions: 1 })] } });
    expect(verdictOf(markdownOnly, copy('same'), before('same'))).toEqual({ status: 'same' });
    expect(verdictOf(markdownOnly, copy('x', null, 404), before('x'))).toEqual({ status: 'removed' });
  });

  it('compares a JSON target by its fields, previous and current, and not by its markdown', () => {
    const v = verdictOf(jsonOnly, copy('price 12', { price: 12, name: 'Lamp' }), before('price 10', { price: 10, name: 'Lamp' }));
    expect(v).toEqual({ status: 'changed', diff: { json: { price: { previous: 10, current: 12 } } } });
    expect(verdictOf(jsonOnly, copy('new layout', { price: 10 }), before('old layout', { price: 10 }))).toEqual({ status: 'same' });
    const mixed = verdictOf({ diff: { text: true, json: true } }, copy('b', { a: 2 }), before('a', { a: 1 }));
    expect(mixed).toMatchObject({ status: 'changed', diff: { text: expect.stringContaining('+b'), json: { a: { previous: 1, current: 2 } } } });
  });
});
