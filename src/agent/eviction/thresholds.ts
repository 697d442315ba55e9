// Eviction thresholds from the agent's configuration: evictionHard, evictionSoft with
// evictionSoftGracePeriod, evictionMinimumReclaim. A value is a quantity ("100Mi") or a
// percentage of the signal's capacity ("10%"); "0%" and "100%" turn a threshold off, as in
// Kubernetes. Mistakes are refused at start in the kubelet's words.

import { parseDuration } from '../../api/duration.ts';
import { parseQuantity } from '../../api/quantity.ts';

export const signals = ['memory.available', 'nodefs.available', 'nodefs.inodesFree', 'imagefs.available', 'imagefs.inodesFree', 'pid.available'] as const;
export type Signal = (typeof signals)[number];

export interface ThresholdValue {
  /** an absolute amount (bytes, inodes, pids) */
  quantity?: number;
  /** a fraction of the capacity, 0..1 */
  percentage?: number;
}

export interface Threshold {
  signal: Signal;
  value: ThresholdValue;
  /** 0 for a hard threshold; a soft one acts once it has held this long */
  gracePeriodMs: number;
  minReclaim?: ThresholdValue;
}

export interface EvictionSettings {
  evictionHard?: Record<string, string>;
  evictionSoft?: Record<string, string>;
  evictionSoftGracePeriod?: Record<string, string>;
  evictionMinimumReclaim?: Record<string, string>;
}

export const isHard = (t: Threshold) => t.gracePeriodMs === 0;
export const thresholdKey = (t: Threshold) => `${t.signal}/${isHard(t) ? 'hard' : 'soft'}`;

const isSignal = (s: string): s is Signal => (signals as readonly string[]).includes(s);

function parseValue(signal: string, val: string, what: string): ThresholdValue | undefined {
  if (val.endsWith('%')) {
    if (val === '0%' || val === '100%') return undefined;
    const n = Number(val.slice(0, -1));
    if (!Number.isFinite(n) || val.slice(0, -1).trim() === '') throw new Error(`invalid ${what} for ${signal}: ${val}`);
    if (n < 0) throw new Error(`eviction percentage threshold ${signal} must be >= 0%: ${val}`);
    if (n > 100) throw new Error(`eviction percentage threshold ${signal} must be <= 100%: ${val}`);
    return { percentage: n / 100 };
  }
  const q = parseQuantity(val);
  if (q === undefined) throw new Error(`invalid ${what} for ${signal}: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  if (q < 0) throw new Error(`eviction threshold ${signal} must be positive: ${val}`);
  return { quantity: q };
}

function statements(map: Record<string, string> | undefined, what: string): Array<{ signal: Signal; value: ThresholdValue }> {
  const out: Array<{ signal: Signal; value: ThresholdValue }> = [];
  for (const [signal, val] of Object.entries(map ?? {})) {
    if (!isSignal(signal)) throw new Error(`unsupported eviction signal ${signal}`);
    const value = parseValue(signal, String(val).trim(), what);
    if (value) out.push({ signal, value });
  }
  return out;
}

export function parseThresholds(s: EvictionSettings): Threshold[] {
  const hard = statements(s.evictionHard, 'threshold').map(x => ({ ...x, gracePeriodMs: 0 }));
  const periods = new Map<string, number>();
  for (const [signal, d] of Object.entries(s.evictionSoftGracePeriod ?? {})) {
    if (!isSignal(signal)) throw new Error(`unsupported eviction signal ${signal}`);
    const ms = parseDuration(d);
    if (ms < 0) throw new Error(`invalid eviction grace period specified: ${d}, must be a positive value`);
    periods.set(signal, ms);
  }
  const soft = statements(s.evictionSoft, 'threshold').map(x => {
    const p = periods.get(x.signal);
    if (p === undefined) throw new Error(`grace period must be specified for the soft eviction threshold ${x.signal}`);
    return { ...x, gracePeriodMs: p };
  });
  const reclaim = new Map(statements(s.evictionMinimumReclaim, 'minimum reclaim').map(x => [x.signal, x.value]));
  return [...hard, ...soft].map(t => (reclaim.has(t.signal) ? { ...t, minReclaim: reclaim.get(t.signal) } : t));
}

/** the amount a value stands for against a capacity (a percentage rounded down, as Kubernetes does) */
export function thresholdQuantity(v: ThresholdValue, capacity: number): number {
  return v.quantity ?? Math.floor(capacity * (v.percentage ?? 0));
}
