// An informer's objects by namespace, kept from its events: controllers whose sync reads one
// namespace look there instead of filtering every object.

import type { Informer } from './informer.ts';

export function byNamespace<T extends { metadata: { name: string; namespace: string } }>(inf: Informer<T>): (ns: string) => T[] {
  const index = new Map<string, Map<string, T>>();
  const keep = (o: T) => { let m = index.get(o.metadata.namespace); if (!m) index.set(o.metadata.namespace, m = new Map()); m.set(o.metadata.name, o); };
  const forget = (o: T) => { const m = index.get(o.metadata.namespace); if (m?.delete(o.metadata.name) && !m.size) index.delete(o.metadata.namespace); };
  inf.on('add', keep).on('update', (_o, n) => keep(n)).on('delete', forget);
  return ns => [...(index.get(ns)?.values() ?? [])];
}
