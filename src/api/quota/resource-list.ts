// Resource lists (name → quantity, as ResourceQuota's hard and used and a pod's requests hold
// them) and the arithmetic quota does on them, exactly as Kubernetes' quota helpers do it: sums
// keep the first operand's suffix family unless it is zero, comparisons are exact, and lists are
// printed sorted by name, `name=quantity` joined by commas, as the admission messages print them.

import { compareQuantities, exactQuantity, formatQuantity, quantityFamily, type ExactQuantity } from '../quantity.ts';

export type ResourceList = Record<string, string>;

function scaled(x: ExactQuantity, scale: number): bigint {
  return x.num * 10n ** BigInt(scale - x.scale);
}

function combine(a: string, b: string, sign: 1n | -1n): string {
  const x = exactQuantity(a), y = exactQuantity(b);
  if (!x || !y) throw new Error(`malformed quantity ${x ? b : a}`);
  const scale = Math.max(x.scale, y.scale);
  const num = scaled(x, scale) + sign * scaled(y, scale);
  // a zero receiver takes the other operand's format, as Quantity.Add and Sub do
  const family = x.num === 0n ? quantityFamily(b) : quantityFamily(a);
  return formatQuantity({ num, scale }, family);
}

export function addQuantity(a: string, b: string): string { return combine(a, b, 1n); }
export function subtractQuantity(a: string, b: string): string { return combine(a, b, -1n); }

export function isZero(q: string): boolean { return exactQuantity(q)?.num === 0n; }

/** a + b, name by name */
export function add(a: ResourceList | undefined, b: ResourceList | undefined): ResourceList {
  const out: ResourceList = { ...a };
  for (const [k, v] of Object.entries(b ?? {})) out[k] = k in out ? addQuantity(out[k]!, v) : v;
  return out;
}

/** a - b name by name, never below zero; names only in b are zero */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const [k, v] of Object.entries(a)) {
    const d = k in b ? subtractQuantity(v, b[k]!) : v;
    out[k] = (compareQuantities(d, '0') ?? 0) > 0 ? d : '0';
  }
  for (const k of Object.keys(b)) if (!(k in out)) out[k] = '0';
  return out;
}

/** only the names given */
export function mask(list: ResourceList | undefined, names: Iterable<string>): ResourceList {
  const out: ResourceList = {};
  for (const n of names) if (list && n in list) out[n] = list[n]!;
  return out;
}

export function removeZeros(list: ResourceList): ResourceList {
  return Object.fromEntries(Object.entries(list).filter(([, v]) => !isZero(v)));
}

/** names whose quantity is below zero */
export function negativeNames(list: ResourceList): string[] {
  return Object.keys(list).filter(k => (compareQuantities(list[k], '0') ?? 0) < 0).sort();
}

/** the names where a exceeds b (names b has no entry for are not limited) */
export function exceeding(a: ResourceList, b: ResourceList): string[] {
  return Object.keys(b).filter(k => k in a && (compareQuantities(a[k], b[k]) ?? 0) > 0).sort();
}

/** the same names with equal quantities */
export function equals(a: ResourceList | undefined, b: ResourceList | undefined): boolean {
  const ka = Object.keys(a ?? {}), kb = Object.keys(b ?? {});
  if (ka.length !== kb.length) return false;
  return ka.every(k => b && k in b && compareQuantities(a![k], b[k]) === 0);
}

/** "limits.cpu=1,pods=2": sorted by name, as the quota messages print a list */
export function prettyPrint(list: ResourceList): string {
  return Object.keys(list).sort().map(k => `${k}=${list[k]}`).join(',');
}

/** "limits.cpu,pods" */
export function prettyPrintNames(names: Iterable<string>): string {
  return [...new Set(names)].sort().join(',');
}
