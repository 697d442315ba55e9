// An index over an informer's objects, kept from its events, as client-go's Indexers: each object
// is filed under the keys a function gives it, so a controller reads the few objects it cares
// about (one namespace's, one owner's) instead of filtering every object on each sync.

import { objectKey, type Informer } from './informer.ts';

type Named = { metadata?: { name?: string; namespace?: string } };

/** the objects filed under `key`, looked up from the informer's latest events */
export type IndexLookup<T> = (key: string) => T[];

export function indexBy<T extends Named>(inf: Informer<T>, keyOf: (o: T) => string | undefined): IndexLookup<T> {
  const index = new Map<string, Map<string, T>>();
  const file = (o: T) => {
    const k = keyOf(o);
    if (k === undefined) return;
    let m = index.get(k);
    if (!m) index.set(k, m = new Map());
    m.set(objectKey(o), o);
  };
  const unfile = (o: T) => {
    const k = keyOf(o);
    if (k === undefined) return;
    const m = index.get(k);
    if (m?.delete(objectKey(o)) && !m.size) index.delete(k);
  };
  inf.on('add', file).on('update', (old, cur) => { unfile(old); file(cur); }).on('delete', unfile);
  return key => [...(index.get(key)?.values() ?? [])];
}
