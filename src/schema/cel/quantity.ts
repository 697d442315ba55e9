// Kubernetes' CEL quantity library: quantity(), isQuantity() and the Quantity methods
// (sign, isInteger, asInteger, asApproximateFloat, add, sub, compareTo, isLessThan,
// isGreaterThan). Values are kept exactly (numerator / 10^scale) so `quantity('100m') ==
// quantity('0.1')` and additions do not round, as resource.Quantity behaves.

import { CelScalar, celFunc, celMethod, type CelFunc } from '@bufbuild/cel';
import { QUANTITY, descs, fieldsOf, make } from './types.ts';

const { STRING, INT, BOOL, DOUBLE } = CelScalar;

const formatError = 'quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'';
const suffixError = 'unable to parse quantity\'s suffix';
const binary: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const decimal: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const int64Max = 2n ** 63n - 1n, int64Min = -(2n ** 63n);

interface Exact { num: bigint; scale: bigint }

/** the exact value of a quantity string, or the error resource.ParseQuantity gives */
export function parseExactQuantity(text: string): Exact | Error {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[-+]?[0-9]*)$/.exec(text);
  if (!text || !m || (!m[2] && !m[3])) return new Error(formatError);
  const [, sign, whole = '', frac = '', suffix = ''] = m;
  let e10 = -frac.length, e2 = 0;
  if (suffix in binary) e2 = binary[suffix]!;
  else if (suffix in decimal) e10 += decimal[suffix]!;
  else if (/^[eE][-+]?[0-9]+$/.test(suffix)) e10 += Number(suffix.slice(1));
  else return new Error(suffixError);
  let num = BigInt(`${sign}${whole || '0'}${frac}`) * 2n ** BigInt(e2);
  if (e10 > 0) num *= 10n ** BigInt(e10);
  return normalize({ num, scale: BigInt(Math.max(0, -e10)) });
}

function normalize(q: Exact): Exact {
  let { num, scale } = q;
  while (scale > 0n && num % 10n === 0n) { num /= 10n; scale--; }
  return { num, scale };
}

function quantityValue(q: Exact): never {
  return make(descs.quantity, { num: String(q.num), scale: q.scale });
}

function exactOf(v: unknown): Exact {
  const f = fieldsOf<{ num: string; scale: bigint }>(v);
  return { num: BigInt(f.num), scale: BigInt(f.scale) };
}

function aligned(a: Exact, b: Exact): [bigint, bigint, bigint] {
  const scale = a.scale > b.scale ? a.scale : b.scale;
  return [a.num * 10n ** (scale - a.scale), b.num * 10n ** (scale - b.scale), scale];
}

function compare(a: Exact, b: Exact): bigint {
  const [x, y] = aligned(a, b);
  return x < y ? -1n : x > y ? 1n : 0n;
}

function plus(a: Exact, b: Exact, sign: bigint): never {
  const [x, y, scale] = aligned(a, b);
  return quantityValue(normalize({ num: x + sign * y, scale }));
}

const fromInt = (i: bigint): Exact => ({ num: i, scale: 0n });

export const quantityLibrary: CelFunc[] = [
  celFunc('quantity', [STRING], QUANTITY, (s: string) => {
    const q = parseExactQuantity(s);
    if (q instanceof Error) throw q;
    return quantityValue(q);
  }),
  celFunc('isQuantity', [STRING], BOOL, (s: string) => !(parseExactQuantity(s) instanceof Error)),
  celMethod('sign', QUANTITY, [], INT, function () { const n = exactOf(this).num; return n < 0n ? -1n : n > 0n ? 1n : 0n; }),
  celMethod('isInteger', QUANTITY, [], BOOL, function () {
    const q = exactOf(this);
    return q.scale === 0n && q.num >= int64Min && q.num <= int64Max;
  }),
  celMethod('asInteger', QUANTITY, [], INT, function () {
    const q = exactOf(this);
    if (q.scale !== 0n || q.num < int64Min || q.num > int64Max) throw new Error('cannot convert value to integer');
    return q.num;
  }),
  celMethod('asApproximateFloat', QUANTITY, [], DOUBLE, function () {
    const q = exactOf(this);
    return Number(q.num) / 10 ** Number(q.scale);
  }),
  celMethod('add', QUANTITY, [QUANTITY], QUANTITY, function (o) { return plus(exactOf(this), exactOf(o), 1n); }),
  celMethod('add', QUANTITY, [INT], QUANTITY, function (i: bigint) { return plus(exactOf(this), fromInt(i), 1n); }),
  celMethod('sub', QUANTITY, [QUANTITY], QUANTITY, function (o) { return plus(exactOf(this), exactOf(o), -1n); }),
  celMethod('sub', QUANTITY, [INT], QUANTITY, function (i: bigint) { return plus(exactOf(this), fromInt(i), -1n); }),
  celMethod('compareTo', QUANTITY, [QUANTITY], INT, function (o) { return compare(exactOf(this), exactOf(o)); }),
  celMethod('isLessThan', QUANTITY, [QUANTITY], BOOL, function (o) { return compare(exactOf(this), exactOf(o)) < 0n; }),
  celMethod('isGreaterThan', QUANTITY, [QUANTITY], BOOL, function (o) { return compare(exactOf(this), exactOf(o)) > 0n; }),
];
