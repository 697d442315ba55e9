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
export interface ExactQuantity { num: bigint; scale: number }

/** which suffixes a quantity is written with, as Go's Quantity keeps its Format */
export type QuantityFamily = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

/** the family of a quantity's text (a number given as such is DecimalSI) */
export function quantityFamily(q: unknown): QuantityFamily {
  const suffix = /([eE][+-]?\d+|[KMGTPE]i)$/.exec(String(q).trim())?.[1] ?? '';
  return suffix.endsWith('i') ? 'BinarySI' : /^[eE]/.test(suffix) ? 'DecimalExponent' : 'DecimalSI';
}

export function exactQuantity(q: unknown): ExactQuantity | undefined {
  const text = typeof q === 'number' ? String(q) : q;
  if (typeof text !== 'string') return undefined;
  const m = /^([+-]?)(\d*)(?:\.(\d*))?([eE][+-]?\d+|[KMGTPE]i|[numkMGTPE]?)$/.exec(text.trim());
  if (!m || (!m[2] && !m[3])) return undefined;
  const [, sign, whole, frac = '', suffix = ''] = m;
  let e10 = -frac.length;
  let e2 = 0;
  // (a bare E is exa; an exponent has digits)
  if (/^[eE][+-]?\d+$/.test(suffix)) e10 += Number(suffix.slice(1));
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
  const x = exactQuantity(a), y = exactQuantity(b);
  if (!x || !y) {
    const fx = parseQuantity(a), fy = parseQuantity(b);
    if (fx === undefined || fy === undefined) return undefined;
    return fx < fy ? -1 : fx > fy ? 1 : 0;
  }
  const l = x.num * 10n ** BigInt(y.scale), r = y.num * 10n ** BigInt(x.scale);
  return l < r ? -1 : l > r ? 1 : 0;
}

const siSuffixes: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const binarySuffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/**
 * A quantity in the canonical form Kubernetes writes it in: the suffix family of the input
 * (binary, decimal SI, or a decimal exponent) kept, the largest unit that leaves a whole number
 * chosen (`1000m` is `1`, `1024Mi` is `1Gi`, `0.1` is `100m`), binary values below 1024 or with a
 * fraction written as decimal SI, and nothing finer than nano (rounded up, away from zero).
 * Undefined when malformed.
 */
export function canonicalQuantity(q: unknown): string | undefined {
  const x = exactQuantity(q);
  return x && formatQuantity(x, quantityFamily(q));
}

/** an exact value written canonically in a family's suffixes (see canonicalQuantity) */
export function formatQuantity(x: ExactQuantity, family: QuantityFamily): string {
  let { num, scale } = x;
  while (scale > 0 && num % 10n === 0n) { num /= 10n; scale--; }
  const negative = num < 0n;
  if (negative) num = -num;
  const sign = negative ? '-' : '';
  if (family === 'BinarySI' && scale === 0 && num >= 1024n) {
    let unit = 0;
    while (unit < 6 && num % 1024n === 0n) { num /= 1024n; unit++; }
    return `${sign}${num}${binarySuffixes[unit]}`;
  }
  if (num === 0n) return '0';
  let e = -scale;
  while (num % 10n === 0n) { num /= 10n; e++; }
  if (e < -9) {
    const div = 10n ** BigInt(-9 - e);
    num = (num + div - 1n) / div;
    e = -9;
  }
  const exponent = family === 'DecimalExponent';
  let e3 = Math.floor(e / 3) * 3;
  if (!exponent && e3 > 18) e3 = 18;
  num *= 10n ** BigInt(e - e3);
  if (exponent) return `${sign}${num}${e3 === 0 ? '' : `e${e3}`}`;
  return `${sign}${num}${siSuffixes[e3]}`;
}
