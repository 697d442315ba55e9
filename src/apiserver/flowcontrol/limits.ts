// How the server's seats are divided among priority levels (KEP-1040 with borrowing): each
// level's nominal share of the server concurrency limit, the seats it may lend and borrow, the
// widest request it may run, and the periodic re-division by recent seat demand.

import type { PriorityLevel } from './types.ts';

/** the largest width the work estimator gives any request */
export const maximumSeatsLimit = 10;
// the share of a level's nominal limit that its widest request may take
const maxSeatsFraction = 0.15;

export interface LevelLimits {
  nominal: number;
  lendable: number;
  borrowing: number;
  /** the fewest seats the level keeps (nominal less lendable) */
  lower: number;
  /** the most seats it can hold (nominal plus borrowing) */
  upper: number;
  /** the widest request it runs (0: no bound from the level, the estimator's own applies) */
  maxSeats: number;
}

/**
 * The server concurrency limit of kube-apiserver: --max-requests-inflight plus
 * --max-mutating-requests-inflight; with APF on they must add up to something positive.
 */
export function serverConcurrencyLimit(maxRequestsInflight: number, maxMutatingRequestsInflight: number): number {
  const total = maxRequestsInflight + maxMutatingRequestsInflight;
  if (total <= 0) throw new Error(`invalid configuration: MaxRequestsInFlight=${maxRequestsInflight} and MaxMutatingRequestsInFlight=${maxMutatingRequestsInflight}; they must add up to something positive`);
  return total;
}

export function levelLimits(levels: readonly PriorityLevel[], serverLimit: number): Map<string, LevelLimits> {
  const shareSum = levels.reduce((n, l) => n + l.nominalConcurrencyShares, 0);
  const out = new Map<string, LevelLimits>();
  for (const l of levels) {
    // rounding up may hand out a little more than the server limit; as in Kubernetes
    const nominal = shareSum > 0 ? Math.ceil(serverLimit * l.nominalConcurrencyShares / shareSum) : 0;
    const lendable = Math.round(nominal * l.lendablePercent / 100);
    const borrowing = l.borrowingLimitPercent === undefined ? serverLimit : Math.round(nominal * l.borrowingLimitPercent / 100);
    const hand = l.queuing?.handSize;
    const maxSeats = hand ? Math.max(1, Math.min(Math.ceil(nominal * maxSeatsFraction), Math.floor(nominal / hand))) : 0;
    out.set(l.name, { nominal, lendable, borrowing, lower: nominal - lendable, upper: nominal + borrowing, maxSeats });
  }
  return out;
}

/** the limit a level starts with before any demand was seen: nominal less half of what it lends */
export function initialLimit(l: LevelLimits): number {
  return l.nominal - Math.floor(l.lendable / 2);
}

export interface AllocationItem { lower: number; upper: number; target: number }

// a target of zero would make a level's share insensitive to the common factor
const minTarget = 0.001;

/**
 * Divides `total` seats so that every level gets the same proportion of its target, clamped to
 * its bounds: the common factor is found by bisection (the sum is monotone in it). Bounds that
 * cannot be met together give every level its lower (or upper) bound.
 */
export function allocateSeats(total: number, items: readonly AllocationItem[]): number[] {
  const lowSum = items.reduce((n, i) => n + i.lower, 0);
  const highSum = items.reduce((n, i) => n + i.upper, 0);
  if (total <= lowSum) return items.map(i => i.lower);
  if (total >= highSum) return items.map(i => i.upper);
  const targets = items.map(i => Math.max(i.target, minTarget));
  const sumAt = (f: number) => items.reduce((n, it, k) => n + Math.min(it.upper, Math.max(it.lower, f * targets[k]!)), 0);
  let lo = 0;
  let hi = Math.max(...items.map((it, k) => it.upper / targets[k]!));
  for (let round = 0; round < 100 && hi - lo > 1e-12 * hi; round++) {
    const mid = (lo + hi) / 2;
    if (sumAt(mid) < total) lo = mid; else hi = mid;
  }
  return items.map((it, k) => Math.min(it.upper, Math.max(it.lower, hi * targets[k]!)));
}
