// Resource quantities as numbers, for comparisons such as requests against limits. Only
// well-formed quantities reach validation (the decoder refuses the rest), so this reads the
// number and its suffix and nothing more.

const binary: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const decimal: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** the value of a quantity ("500m" is 0.5, "1Gi" is 2^30, 3 is 3); undefined when malformed */
export function parseQuantity(q: unknown): number | undefined {
  if (typeof q === 'number') return q;
  if (typeof q !== 'string') return undefined;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))([eE][+-]?\d+|[KMGTPE]i|[numkMGTPE]?)$/.exec(q.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const suffix = m[2]!;
  if (/^[eE][+-]?\d+$/.test(suffix)) return n * 10 ** Number(suffix.slice(1));
  return n * (binary[suffix] ?? decimal[suffix] ?? NaN);
}

const decimalExponent: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binaryExponent: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** a quantity as an exact fraction: numerator / 10^scale */
function exact(q: unknown): { num: bigint; scale: number } | undefined {
  const text = typeof q === 'number' ? String(q) : q;
  if (typeof text !== 'string') return undefined;
  const m = /^([+-]?)(\d*)(?:\.(\d*))?([eE][+-]?\d+|[KMGTPE]i|[numkMGTPE]?)$/.exec(text.trim());
  if (!m || (!m[2] && !m[3])) return undefined;
  const [, sign, whole, frac = '', suffix = ''] = m;
  let e10 = -frac.length;
  let e2 = 0;
  if (/^[eE]/.test(suffix)) e10 += Number(suffix.slice(1));
  else if (suffix in binaryExponent) e2 = binaryExponent[suffix]!;
  else e10 += decimalExponent[suffix]!;
  if (Math.abs(e10) > 400) return undefined;
  let num = BigInt(`${sign}${whole || '0'}${frac}`) * 2n ** BigInt(e2);
  if (e10 > 0) num *= 10n ** BigInt(e10);
  return { num, scale: Math.max(0, -e10) };
}

/**
 * -1, 0 or 1 as quantity a is less than, equal to or more than b, compared exactly as
 * Kubernetes compares them ("100m" equals "0.1", "1Gi" equals "1024Mi"); undefined when either
 * is malformed
 */
export function compareQuantities(a: unknown, b: unknown): -1 | 0 | 1 | undefined {
  const x = exact(a), y = exact(b);
  if (!x || !y) {
    const fx = parseQuantity(a), fy = parseQuantity(b);
    if (fx === undefined || fy === undefined) return undefined;
    return fx < fy ? -1 : fx > fy ? 1 : 0;
  }
  const l = x.num * 10n ** BigInt(y.scale), r = y.num * 10n ** BigInt(x.scale);
  return l < r ? -1 : l > r ? 1 : 0;
}
