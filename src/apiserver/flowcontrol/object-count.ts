// The stored object counts the width of a list is estimated from, per group-resource, read from
// the watch cache's counts at most once a second (Kubernetes' object count tracker is refreshed
// by a periodic storage poll; a list's width needs only the rough size).

import { groupResourceOfPrefix, type ObjectCount } from '../metrics/apiserver-metrics.ts';
import type { ObjectCounter } from './width.ts';

export function objectCounter(source: () => Iterable<ObjectCount>, now: () => number = Date.now, maxAgeMs = 1000): ObjectCounter {
  let counts = new Map<string, number>();
  let readAt = -Infinity;
  return (group, resource) => {
    const t = now();
    if (t - readAt >= maxAgeMs) {
      counts = new Map();
      for (const { prefix, objects } of source()) {
        const gr = groupResourceOfPrefix(prefix);
        counts.set(`${gr.group}/${gr.resource}`, objects);
      }
      readAt = t;
    }
    return counts.get(`${group}/${resource}`);
  };
}
