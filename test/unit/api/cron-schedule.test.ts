import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cronScheduleError, parseCronSchedule } from '../../../src/api/cron-schedule.ts';
import { instantOf, timeZoneError, wallTime } from '../../../src/api/time-zone.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const nexts = (spec: string, from: string, n: number, zone = '') => {
  const s = parseCronSchedule(spec, zone);
  const out: Array<string | undefined> = [];
  let t: number | undefined = at(from);
  for (let i = 0; i < n && t !== undefined; i++) { t = s.next(t); out.push(iso(t)); }
  return out;
};

test('five-field schedules: steps, ranges, lists and names, strictly after the time given', () => {
  assert.deepEqual(nexts('*/1 * * * *', '2026-01-01T00:00:00Z', 2), ['2026-01-01T00:01:00.000Z', '2026-01-01T00:02:00.000Z']);
  assert.deepEqual(nexts('*/15 * * * *', '2026-01-01T00:14:59.500Z', 2), ['2026-01-01T00:15:00.000Z', '2026-01-01T00:30:00.000Z']);
  assert.deepEqual(nexts('5 4 * * sun', '2026-01-01T00:00:00Z', 2), ['2026-01-04T04:05:00.000Z', '2026-01-11T04:05:00.000Z']);
  assert.deepEqual(nexts('0 0 1,15 feb-mar *', '2026-01-20T00:00:00Z', 3), ['2026-02-01T00:00:00.000Z', '2026-02-15T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
  // day of month and day of week both restricted: either matches (the 13th, or any Friday)
  assert.deepEqual(nexts('0 12 13 * 5', '2026-02-01T00:00:00Z', 3), ['2026-02-06T12:00:00.000Z', '2026-02-13T12:00:00.000Z', '2026-02-20T12:00:00.000Z']);
  assert.deepEqual(nexts('30 2 * * 1-5/2', '2026-01-05T03:00:00Z', 2), ['2026-01-07T02:30:00.000Z', '2026-01-09T02:30:00.000Z']);
});

test('descriptors and @every', () => {
  assert.deepEqual(nexts('@hourly', '2026-01-01T10:30:00Z', 1), ['2026-01-01T11:00:00.000Z']);
  assert.deepEqual(nexts('@daily', '2026-01-01T10:30:00Z', 1), ['2026-01-02T00:00:00.000Z']);
  assert.deepEqual(nexts('@weekly', '2026-01-01T10:30:00Z', 1), ['2026-01-04T00:00:00.000Z']);
  assert.deepEqual(nexts('@monthly', '2026-01-01T10:30:00Z', 1), ['2026-02-01T00:00:00.000Z']);
  assert.deepEqual(nexts('@yearly', '2026-01-01T10:30:00Z', 1), ['2027-01-01T00:00:00.000Z']);
  assert.deepEqual(nexts('@every 90s', '2026-01-01T00:00:00.700Z', 2), ['2026-01-01T00:01:30.000Z', '2026-01-01T00:03:00.000Z']);
  // never: February 31st
  assert.deepEqual(nexts('0 0 31 2 *', '2026-01-01T00:00:00Z', 1), [undefined]);
});

test('time zones: the wall clock of the zone, across a DST change', () => {
  // 09:00 in Paris is 08:00 UTC in winter and 07:00 UTC in summer (DST began 2026-03-29)
  assert.deepEqual(nexts('0 9 * * *', '2026-03-28T00:00:00Z', 2, 'Europe/Paris'), ['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z']);
  assert.deepEqual(nexts('0 0 * * *', '2026-06-01T00:00:00Z', 1, 'America/New_York'), ['2026-06-01T04:00:00.000Z']);
  assert.deepEqual(wallTime(at('2026-06-01T12:00:00Z'), 'Asia/Tokyo'), { year: 2026, month: 6, day: 1, hour: 21, minute: 0, second: 0, weekday: 1 });
  assert.equal(iso(instantOf({ year: 2026, month: 6, day: 1, hour: 21, minute: 0, second: 0 }, 'Asia/Tokyo')), '2026-06-01T12:00:00.000Z');
  assert.equal(timeZoneError('Europe/Paris'), undefined);
  assert.equal(timeZoneError('Mars/Olympus'), 'unknown time zone Mars/Olympus');
});

test('errors worded as robfig/cron words them', () => {
  assert.equal(cronScheduleError(''), 'empty spec string');
  assert.equal(cronScheduleError('* * * * * *'), 'expected exactly 5 fields, found 6: [* * * * * *]');
  assert.equal(cronScheduleError('0 24 * * *'), 'end of range (24) above maximum (23): 24');
  assert.equal(cronScheduleError('0 0 0 * *'), 'beginning of range (0) below minimum (1): 0');
  assert.equal(cronScheduleError('5-1 * * * *'), 'beginning of range (5) beyond end of range (1): 5-1');
  assert.equal(cronScheduleError('*/0 * * * *'), 'step of range should be a positive number: */0');
  assert.equal(cronScheduleError('1-2-3 * * * *'), 'too many hyphens: 1-2-3');
  assert.equal(cronScheduleError('x * * * *'), 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax');
  assert.equal(cronScheduleError('* * * * 7'), 'end of range (7) above maximum (6): 7');
  assert.equal(cronScheduleError('@fortnightly'), 'unrecognized descriptor: @fortnightly');
  assert.equal(cronScheduleError('TZ=Europe/Paris 0 9 * * *'), undefined);
});
