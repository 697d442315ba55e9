// Go-style durations as Kubernetes flags take them: "300ms", "5s", "1m30s", "2h".

const units: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(s: string): number {
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0, matched = 0, m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    total += Number(m[1]) * units[m[2]!]!;
    matched = re.lastIndex;
  }
  if (matched !== s.length || s.length === 0) throw new Error(`invalid duration ${JSON.stringify(s)}`);
  return total;
}

function trimmed(whole: number, part: number, digits: number): string {
  if (part === 0) return String(whole);
  return `${whole}.${String(part).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** nanoseconds as a Go duration string: 1h2m3.5s, 300ms, 1.5µs, 0s */
export function formatDuration(ns: number): string {
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  const n = Math.abs(Math.trunc(ns));
  if (n < 1e3) return `${sign}${n}ns`;
  if (n < 1e6) return `${sign}${trimmed(Math.floor(n / 1e3), n % 1e3, 3)}µs`;
  if (n < 1e9) return `${sign}${trimmed(Math.floor(n / 1e6), n % 1e6, 6)}ms`;
  const h = Math.floor(n / 3.6e12);
  const m = Math.floor((n % 3.6e12) / 6e10);
  const rest = n % 6e10;
  const s = trimmed(Math.floor(rest / 1e9), rest % 1e9, 9);
  return `${sign}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}
