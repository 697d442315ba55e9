// Cron schedules as CronJobs write them and Kubernetes reads them (robfig/cron v3's standard
// parser): five fields (minute, hour, day of month, month, day of week) with lists, ranges,
// steps and month/day names, the @yearly…@hourly descriptors and @every <duration>, and
// errors worded as that parser words them, since the API server returns them in its 422s.

import { parseDuration } from './duration.ts';
import { instantOf, timeZoneError, wallTime } from './time-zone.ts';

interface Bounds { min: number; max: number; names?: Record<string, number> }

const minuteB: Bounds = { min: 0, max: 59 };
const hourB: Bounds = { min: 0, max: 23 };
const domB: Bounds = { min: 1, max: 31 };
const monthB: Bounds = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const dowB: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

/** the values a field allows, and whether it was written as * or ? (which changes day matching) */
interface Field { values: Set<number>; star: boolean }

export interface CronSchedule {
  /** the first activation strictly after `afterMs` (whole seconds), or undefined when none comes within five years */
  next(afterMs: number): number | undefined;
}

function atoi(s: string): number {
  // Go's strconv.Atoi: an optional sign and decimal digits
  if (!/^[+-]?\d+$/.test(s)) throw new Error(`failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Number(s);
}

function mustParseInt(s: string): number {
  const n = atoi(s);
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${s}`);
  return n;
}

function intOrName(s: string, b: Bounds): number {
  const named = b.names?.[s.toLowerCase()];
  return named ?? mustParseInt(s);
}

function parseRange(expr: string, b: Bounds, into: Field): void {
  const rangeAndStep = expr.split('/');
  const lowHigh = rangeAndStep[0]!.split('-');
  const single = lowHigh.length === 1;
  let start: number, end: number, star = false;
  if (lowHigh[0] === '*' || lowHigh[0] === '?') {
    start = b.min; end = b.max; star = true;
  } else {
    start = intOrName(lowHigh[0]!, b);
    if (lowHigh.length === 1) end = start;
    else if (lowHigh.length === 2) end = intOrName(lowHigh[1]!, b);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]!);
    if (single) end = b.max;
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) {
    throw new Error(`too many slashes: ${expr}`);
  }
  if (start < b.min) throw new Error(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new Error(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
  for (let v = start; v <= end; v += step) into.values.add(v);
  if (star) into.star = true;
}

function parseField(text: string, b: Bounds): Field {
  const f: Field = { values: new Set(), star: false };
  for (const part of text.split(',')) parseRange(part, b, f);
  return f;
}

const descriptors: Record<string, string> = {
  '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0', '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *',
};

/** how Go prints a []string: [a b c] */
const goSlice = (xs: string[]) => `[${xs.join(' ')}]`;

/**
 * Parses a schedule as cron.ParseStandard does. A `TZ=`/`CRON_TZ=` prefix names the zone (the
 * API server refuses it in new CronJobs); otherwise `zone` does ('' for UTC).
 */
export function parseCronSchedule(spec: string, zone = ''): CronSchedule {
  let text = spec;
  if (text.startsWith('TZ=') || text.startsWith('CRON_TZ=')) {
    const space = text.indexOf(' ');
    const eq = text.indexOf('=');
    const name = space < 0 ? text.slice(eq + 1) : text.slice(eq + 1, space);
    const err = timeZoneError(name);
    if (err) throw new Error(`provided bad location ${name}: ${err}`);
    zone = name;
    text = space < 0 ? '' : text.slice(space).trim();
  }
  if (text.length === 0) throw new Error('empty spec string');
  const fields = text.split(/\s+/).filter(Boolean);
  if (fields[0]!.startsWith('@')) {
    const d = fields[0]!;
    if (d.startsWith('@every ') || (d === '@every' && fields.length > 1)) return everySchedule(text.slice('@every '.length).trim());
    const expanded = descriptors[text.trim()];
    if (!expanded) throw new Error(`unrecognized descriptor: ${text}`);
    return fieldSchedule(expanded.split(' '), zone);
  }
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: ${goSlice(fields)}`);
  return fieldSchedule(fields, zone);
}

function everySchedule(durationText: string): CronSchedule {
  let ms: number;
  try { ms = parseDuration(durationText); } catch (err) {
    throw new Error(`failed to parse duration @every ${durationText}: time: invalid duration ${JSON.stringify(durationText)}`, { cause: err });
  }
  // whole seconds, at least one, as ConstantDelaySchedule keeps it
  const delay = Math.max(1000, ms - (ms % 1000));
  return { next: after => after - (after % 1000) + delay };
}

function fieldSchedule(fields: string[], zone: string): CronSchedule {
  const [minute, hour, dom, month, dow] = [
    parseField(fields[0]!, minuteB), parseField(fields[1]!, hourB), parseField(fields[2]!, domB),
    parseField(fields[3]!, monthB), parseField(fields[4]!, dowB),
  ] as [Field, Field, Field, Field, Field];
  const minutes = [...minute.values].sort((a, b) => a - b);
  const hours = [...hour.values].sort((a, b) => a - b);
  const dayMatches = (y: number, m: number, d: number) => {
    const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
    const domMatch = dom.values.has(d);
    const dowMatch = dow.values.has(weekday);
    // either field left as * means both must match; otherwise either may (Vixie cron's rule)
    return dom.star || dow.star ? domMatch && dowMatch : domMatch || dowMatch;
  };
  return {
    next(afterMs) {
      const start = afterMs - (((afterMs % 1000) + 1000) % 1000) + 1000;
      const w = wallTime(start, zone);
      const day = new Date(Date.UTC(w.year, w.month - 1, w.day));
      for (let i = 0; i < 5 * 366 + 1; i++, day.setUTCDate(day.getUTCDate() + 1)) {
        const y = day.getUTCFullYear(), m = day.getUTCMonth() + 1, d = day.getUTCDate();
        if (!month.values.has(m) || !dayMatches(y, m, d)) continue;
        for (const h of hours) {
          if (i === 0 && h < w.hour - 1) continue;
          for (const min of minutes) {
            const at = instantOf({ year: y, month: m, day: d, hour: h, minute: min, second: 0 }, zone);
            if (at >= start) return at;
          }
        }
      }
      return undefined;
    },
  };
}

/** the error ParseStandard gives for a schedule, or undefined when it parses */
export function cronScheduleError(spec: string): string | undefined {
  try { parseCronSchedule(spec); return undefined; } catch (err) { return (err as Error).message; }
}
