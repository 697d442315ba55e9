// IANA time zones through Intl, for CronJob schedules: whether a name is one Go's
// time.LoadLocation would load, and the wall-clock reading of an instant in a zone and back.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** the error time.LoadLocation gives for a name, or undefined when it loads ('' is UTC) */
export function timeZoneError(name: string): string | undefined {
  if (name === '' || name === 'UTC') return undefined;
  // Intl also takes offsets ("+01:00") and is case-blind; Go reads zoneinfo files by exact name
  if (!/^[A-Za-z0-9+_./-]+$/.test(name)) return `unknown time zone ${name}`;
  try {
    // aliases Intl canonicalizes (Asia/Calcutta → Asia/Kolkata) are zones Go loads too
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return undefined;
  } catch {
    return `unknown time zone ${name}`;
  }
}

/** the wall-clock fields of an instant in a zone */
export interface WallTime { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number }

const weekdays: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

export function wallTime(ms: number, zone: string): WallTime {
  if (zone === '' || zone === 'UTC') {
    const d = new Date(ms);
    return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: d.getUTCDay() };
  }
  const parts: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  return {
    year: Number(parts.year), month: Number(parts.month), day: Number(parts.day),
    hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second), weekday: weekdays[parts.weekday!] ?? 0,
  };
}

/** the zone's offset from UTC at an instant, in ms */
export function zoneOffsetMs(ms: number, zone: string): number {
  const w = wallTime(ms, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a wall-clock reading names in a zone. A reading skipped by a forward DST change
 * names the instant after the gap; one repeated by a backward change names the earlier one.
 */
export function instantOf(w: Omit<WallTime, 'weekday'>, zone: string): number {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  if (zone === '' || zone === 'UTC') return asUtc;
  const first = asUtc - zoneOffsetMs(asUtc, zone);
  const second = asUtc - zoneOffsetMs(first, zone);
  if (second === first) {
    // the earlier of two readings, when the hour repeats
    const earlier = asUtc - zoneOffsetMs(first - 3600_000, zone);
    const e = wallTime(earlier, zone);
    if (earlier < first && e.hour === w.hour && e.minute === w.minute && e.day === w.day) return earlier;
    return first;
  }
  return Math.max(first, second);
}
