// Owners confirmed absent, remembered so that many dependents of one deleted owner cost one
// lookup, not one each. Bounded, least recently used first out (Kubernetes keeps 500).

import { LruMap } from '../../api/lru-map.ts';
import { identityKey, type Identity } from './identity.ts';

export class AbsentOwnerCache {
  private readonly keys: LruMap<string, true>;

  constructor(capacity = 500) { this.keys = new LruMap(capacity); }

  add(id: Identity): void {
    this.keys.set(identityKey(id), true);
  }

  has(id: Identity): boolean {
    return this.keys.get(identityKey(id)) !== undefined;
  }
}
