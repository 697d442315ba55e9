// How many seats a request occupies while it executes (the work estimator of
// k8s.io/apiserver/pkg/util/flowcontrol/request): a list by the objects it will go through, one
// seat per hundred, between 1 and the level's widest; a watch as a list only when it asks for
// its initial events; everything else one seat (a write's watch events: work-estimate.ts).

import type { RequestInfo } from '../request-info.ts';
import { maximumSeatsLimit } from './limits.ts';

const objectsPerSeat = 100;
const minimumSeats = 1;

/** the objects stored of a group-resource, or undefined when not known (not served here) */
export type ObjectCounter = (group: string, resource: string) => number | undefined;

/** `levelMaxSeats` 0: the level sets no bound of its own */
export function estimateSeats(info: RequestInfo, query: URLSearchParams, count: ObjectCounter, levelMaxSeats: number): number {
  const isWatch = info.verb === 'watch';
  if (info.verb !== 'list' && !isWatch) return minimumSeats;
  // a watch costs a list only while it sends its initial events
  if (isWatch && query.get('sendInitialEvents') !== 'true') return minimumSeats;
  const maxSeats = levelMaxSeats === 0 || levelMaxSeats > maximumSeatsLimit ? maximumSeatsLimit : levelMaxSeats;
  const limitParam = query.get('limit');
  const limit = limitParam === null ? 0 : Number(limitParam);
  // options that do not parse fail later in validation: the most seats, as Kubernetes gives them
  if (!Number.isInteger(limit) || limit < 0) return maxSeats;
  const stored = count(info.group, info.resource);
  // unknown: a resource of an extension API server, whose cost falls on that server
  if (stored === undefined) return minimumSeats;
  const processed = objectsProcessed(isWatch, query, stored, limit > 0 && limit < stored ? limit : stored);
  return Math.min(maxSeats, Math.max(minimumSeats, Math.ceil(processed / objectsPerSeat)));
}

/**
 * From the watch cache a list goes through every object of the resource; from storage, a
 * paginated read of `limit` objects (twice, for decoding and filtering) or, with a selector, the
 * whole range scanned plus the page.
 */
function objectsProcessed(isWatch: boolean, query: URLSearchParams, stored: number, limit: number): number {
  if (isWatch || !fromStorage(query)) return stored;
  if (query.get('labelSelector') || query.get('fieldSelector')) return stored + limit;
  return 2 * limit;
}

/** reads the cache cannot answer: an exact resourceVersion, or a continued page */
function fromStorage(query: URLSearchParams): boolean {
  if (query.get('resourceVersionMatch') === 'Exact') return true;
  return !!query.get('continue');
}
