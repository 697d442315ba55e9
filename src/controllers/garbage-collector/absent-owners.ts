// Owners confirmed absent, remembered so that many dependents of one deleted owner cost one
// lookup, not one each. Bounded, least recently used first out (Kubernetes keeps 500).

import { identityKey, type Identity } from './identity.ts';

export class AbsentOwnerCache {
  private readonly keys = new Map<string, true>();
  private readonly capacity: number;

  constructor(capacity = 500) { this.capacity = capacity; }

  add(id: Identity): void {
    const k = identityKey(id);
    this.keys.delete(k);
    this.keys.set(k, true);
    if (this.keys.size > this.capacity) this.keys.delete(this.keys.keys().next().value!);
  }

  has(id: Identity): boolean {
    const k = identityKey(id);
    if (!this.keys.has(k)) return false;
    this.keys.delete(k);
    this.keys.set(k, true);
    return true;
  }
}
