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
