// JSON forms of the apimachinery types that are messages on the wire but strings in JSON:
// timestamps (RFC 3339, seconds or microseconds) and durations (Go's duration syntax).

import { formatDuration } from '../../api/duration.ts';
import { rfc3339 } from '../../api/time.ts';

export { formatDuration };

// An object's timestamps mostly repeat (creation, managed fields, conditions), and formatting
// and parsing dates dominates the cost of small messages; a bounded memo removes most of it.
const formatted = new Map<number, string>();
const parsed = new Map<string, { seconds: number; nanos: number } | undefined>();
const memoLimit = 4096;

/** the time to the second, without its zone (api/time.ts's Time less the 'Z') */
function isoSeconds(seconds: number): string {
  let s = formatted.get(seconds);
  if (s === undefined) {
    if (formatted.size >= memoLimit) formatted.clear();
    s = rfc3339(seconds * 1000).slice(0, -1);
    formatted.set(seconds, s);
  }
  return s;
}

/** seconds + nanos as RFC 3339 UTC; null for the zero time, as Go's JSON writes it */
export function formatTime(seconds: number, nanos: number, micro: boolean): string | null {
  if (seconds === 0 && nanos === 0) return null;
  const iso = isoSeconds(seconds);
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`;
}

const fraction = /\.(\d+)/;

/** an RFC 3339 time as seconds + nanos; undefined when it does not parse */
export function parseTime(text: string): { seconds: number; nanos: number } | undefined {
  if (parsed.has(text)) return parsed.get(text);
  if (parsed.size >= memoLimit) parsed.clear();
  const value = parseTimeUncached(text);
  parsed.set(text, value);
  return value;
}

function parseTimeUncached(text: string): { seconds: number; nanos: number } | undefined {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  const seconds = Math.floor(ms / 1000);
  const frac = fraction.exec(text.slice(19, 30))?.[1];
  const nanos = frac ? Number(frac.slice(0, 9).padEnd(9, '0')) : 0;
  return { seconds, nanos };
}

const unitNs: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 6e10, h: 3.6e12 };
const durationPart = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** a Go duration string as nanoseconds; undefined when it does not parse */
export function parseDuration(text: string): number | undefined {
  let s = text, sign = 1;
  if (s[0] === '-' || s[0] === '+') { sign = s[0] === '-' ? -1 : 1; s = s.slice(1); }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  durationPart.lastIndex = 0;
  while (durationPart.lastIndex < s.length) {
    const m = durationPart.exec(s);
    if (!m) return undefined;
    total += Math.round(Number(m[1]) * unitNs[m[2]!]!);
  }
  return sign * total;
}
