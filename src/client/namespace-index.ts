// An informer's objects by namespace: controllers whose sync reads one namespace look there
// instead of filtering every object.

import type { Informer } from './informer.ts';
import { indexBy, type IndexLookup } from './informer-index.ts';

export function byNamespace<T extends { metadata: { name: string; namespace: string } }>(inf: Informer<T>): IndexLookup<T> {
  return indexBy(inf, o => o.metadata.namespace);
}
