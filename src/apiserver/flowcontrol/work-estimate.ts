// The work a request brings to its priority level (kube-apiserver's WorkEstimate): the seats it
// occupies while it executes, and for a write the seats its watch events occupy after it
// returns — every watcher of the object wakes to filter, encode and send the event — held for
// an additional latency. A list's width is width.ts's; a create, update, patch or delete is
// charged one seat per ten interested watches, 5 ms each, from the tenth watch on.

import type { RequestInfo } from '../request-info.ts';
import { estimateSeats, type ObjectCounter } from './width.ts';

export interface WorkEstimate {
  /** seats occupied while the request executes */
  initialSeats: number;
  /** seats occupied after it has finished, during `additionalLatencyMs` */
  finalSeats: number;
  additionalLatencyMs: number;
}

/** the seats a request holds from dispatch until its final seats are given back */
export const maxSeatsOf = (w: WorkEstimate): number => Math.max(w.initialSeats, w.finalSeats);

const minimumSeats = 1;
// Kubernetes' MutatingWorkEstimatorConfig defaults
const watchesPerSeat = 10;
const eventAdditionalDurationMs = 5;
/** the most final seats a write is given (Kubernetes' MaximumMutatingSeatsLimit) */
export const maximumMutatingSeatsLimit = 10;

const mutatingVerbs = new Set(['create', 'update', 'patch', 'delete']);

export interface WorkSources {
  /** stored objects per group-resource, for lists */
  objects: ObjectCounter;
  /** the watches a write may wake */
  watches: (info: RequestInfo) => number;
}

/** the estimate, and for a write the watch count it was made from (for the metrics) */
export function estimateWork(info: RequestInfo, query: URLSearchParams, sources: WorkSources, levelMaxSeats: number): WorkEstimate & { watchCount?: number } {
  if (mutatingVerbs.has(info.verb)) {
    // a service account token is made without storing anything: no watch hears of it
    if (info.resource === 'serviceaccounts' && info.subresource === 'token') return seats(minimumSeats);
    const watchCount = sources.watches(info);
    return { ...mutatingWork(watchCount, levelMaxSeats), watchCount };
  }
  return seats(estimateSeats(info, query, sources.objects, levelMaxSeats));
}

/**
 * A write with `watchCount` interested watches: from ten watches on, one final seat per ten for
 * 5 ms; more final seats than the level's widest request are reshaped into fewer seats held
 * longer, keeping the seat-time the events cost.
 */
export function mutatingWork(watchCount: number, levelMaxSeats: number): WorkEstimate {
  if (watchCount < watchesPerSeat) return seats(minimumSeats);
  const maxSeats = levelMaxSeats === 0 || levelMaxSeats > maximumMutatingSeatsLimit ? maximumMutatingSeatsLimit : levelMaxSeats;
  const wanted = Math.ceil(watchCount / watchesPerSeat);
  const finalWork = wanted * eventAdditionalDurationMs;
  const finalSeats = Math.min(wanted, maxSeats);
  return { initialSeats: minimumSeats, finalSeats, additionalLatencyMs: finalWork / finalSeats };
}

function seats(initialSeats: number): WorkEstimate {
  return { initialSeats, finalSeats: 0, additionalLatencyMs: 0 };
}
