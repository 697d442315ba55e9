// Go's %v rendering of decoded JSON (map[string]interface{}, []interface{}, float64, ...), used
// where Kubernetes puts a patch fragment into an error message: `map[image:x name:y]`.

export function goFormat(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goFormat).join(' ')}]`;
  const o = v as Record<string, unknown>;
  // Go prints map keys sorted by byte order
  const keys = Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[${keys.map(k => `${k}:${goFormat(o[k])}`).join(' ')}]`;
}

/** float64 with %v: shortest digits, exponent form below 1e-4 and from 1e6 on (two-digit exponent) */
function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 6) {
    const sign = e < 0 ? '-' : '+';
    const digits = String(Math.abs(e)).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(n);
}
