// The watches this server is serving, counted per group, resource, namespace and name, as
// kube-apiserver's APF watch tracker counts them: a watch is registered when APF lets it start
// and forgotten when it ends, and a write is charged for the watches that may care about it
// (those of its whole resource, of its namespace, and of its one object). Only this server's
// watches are known, as in Kubernetes.

import { exactMatch, parseFieldSelector } from '../../api/selectors/field.ts';
import type { RequestInfo } from '../request-info.ts';
import { requestDigest } from './classifier.ts';

const readOnlyVerbs = new Set(['get', 'list', 'watch', 'proxy']);

// fields the watch cache indexes watchers by: a watch pinned to one value of the field (a node
// agent's pods) is only woken for objects with that value, so it is not counted against every
// write (Kubernetes approximates all pinned values as rarely matching)
const indexedFields: Record<string, string> = { pods: 'spec.nodeName' };

/** the value a fieldSelector pins `field` to, or undefined (absent, empty, or not parseable) */
function pinned(query: URLSearchParams, field: string): string | undefined {
  const text = query.get('fieldSelector');
  if (!text) return undefined;
  try {
    return exactMatch(parseFieldSelector(text), field);
  } catch {
    return undefined;
  }
}

/** a name kube-apiserver's RequestInfo takes from `metadata.name=` (a valid path segment) */
function selectedName(query: URLSearchParams): string {
  const name = pinned(query, 'metadata.name');
  if (!name || name === '.' || name === '..' || name.includes('/') || name.includes('%')) return '';
  return name;
}

const key = (group: string, resource: string, namespace = '', name = '') => `${group}\u0000${resource}\u0000${namespace}\u0000${name}`;

export class WatchTracker {
  private counts = new Map<string, number>();

  /** counts a watch that APF let start; answers the function that forgets it when it ends */
  register(info: RequestInfo, query: URLSearchParams): () => void {
    if (info.verb !== 'watch') return () => {};
    const indexed = indexedFields[info.resource];
    // a watch pinned to one value of an indexed field is not counted at all
    if (indexed !== undefined && pinned(query, indexed) !== undefined) return () => {};
    const k = key(info.group, info.resource, requestDigest(info).namespace, info.name ?? selectedName(query));
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    let forgotten = false;
    return () => {
      if (forgotten) return;
      forgotten = true;
      const n = (this.counts.get(k) ?? 1) - 1;
      if (n > 0) this.counts.set(k, n); else this.counts.delete(k);
    };
  }

  /**
   * The watches a write may wake: those of the whole resource, of its namespace, and of the
   * object it names (a create names none: its name is in the body).
   */
  interested(info: RequestInfo): number {
    if (readOnlyVerbs.has(info.verb)) return 0;
    const namespace = requestDigest(info).namespace;
    let n = this.counts.get(key(info.group, info.resource)) ?? 0;
    if (namespace) n += this.counts.get(key(info.group, info.resource, namespace)) ?? 0;
    if (info.name) n += this.counts.get(key(info.group, info.resource, namespace, info.name)) ?? 0;
    return n;
  }
}
