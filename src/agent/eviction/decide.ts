// One round of the eviction manager's reckoning, as a pure function of the thresholds, what
// it remembers from earlier rounds and what is observed now (as the kubelet reckons it):
//  - a threshold is met when less than its quantity is available; one met before stays met
//    until its minimum reclaim is available on top;
//  - the node reports a pressure condition while a threshold of its kind is met, and for the
//    pressure transition period after, so that conditions do not flap;
//  - a soft threshold acts only once it has been met for its grace period; a hard one at once.

import { isHard, thresholdKey, thresholdQuantity, type Threshold } from './thresholds.ts';
import { signalCondition, type Observations } from './signals.ts';

export interface EvictionState {
  /** when each threshold was first seen met (by thresholdKey) */
  firstObservedAt: Map<string, number>;
  /** when each pressure condition was last seen */
  conditionLastObservedAt: Map<string, number>;
  /** thresholds whose grace period was over last round (they stay met until reclaimed) */
  met: Threshold[];
}

export const emptyState = (): EvictionState => ({ firstObservedAt: new Map(), conditionLastObservedAt: new Map(), met: [] });

export interface Decision {
  state: EvictionState;
  /** the pressure conditions to report True */
  conditions: Set<string>;
  /** thresholds to act on now (grace periods over), memory first */
  act: Threshold[];
}

/** the thresholds met by the observations; with `withReclaim`, the minimum reclaim counts too */
export function thresholdsMet(thresholds: Threshold[], obs: Observations, withReclaim: boolean): Threshold[] {
  return thresholds.filter(t => {
    const o = obs[t.signal];
    if (!o) return false;
    let quantity = thresholdQuantity(t.value, o.capacity);
    if (withReclaim && t.minReclaim) quantity += thresholdQuantity(t.minReclaim, o.capacity);
    return quantity > o.available;
  });
}

export function decide(thresholds: Threshold[], prev: EvictionState, obs: Observations, now: number, transitionPeriodMs: number): Decision {
  const met = thresholdsMet(thresholds, obs, false);
  for (const t of thresholdsMet(prev.met, obs, true)) if (!met.some(m => thresholdKey(m) === thresholdKey(t))) met.push(t);

  const firstObservedAt = new Map<string, number>();
  for (const t of met) firstObservedAt.set(thresholdKey(t), prev.firstObservedAt.get(thresholdKey(t)) ?? now);

  const conditionLastObservedAt = new Map(prev.conditionLastObservedAt);
  for (const t of met) conditionLastObservedAt.set(signalCondition[t.signal], now);
  const conditions = new Set([...conditionLastObservedAt].filter(([, at]) => now - at < transitionPeriodMs || at === now).map(([c]) => c));
  for (const c of [...conditionLastObservedAt.keys()]) if (!conditions.has(c)) conditionLastObservedAt.delete(c);

  const act = met.filter(t => now - firstObservedAt.get(thresholdKey(t))! >= t.gracePeriodMs);
  // memory first, as the kubelet orders them; the rest keep their order
  act.sort((a, b) => Number(b.signal === 'memory.available') - Number(a.signal === 'memory.available'));
  return { state: { firstObservedAt, conditionLastObservedAt, met: act }, conditions, act };
}

/** the grace period an evicted pod gets: 1 s under a hard threshold, evictionMaxPodGracePeriod under a soft one */
export function evictionGracePeriod(t: Threshold, maxPodGracePeriodSeconds: number): number {
  return isHard(t) ? 1 : maxPodGracePeriodSeconds;
}
