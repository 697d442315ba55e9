// What a controller is waiting to see through its informer after its own writes, so that a
// sync does not act on a cache that has not caught up (client-go's ControllerExpectations and
// the job controller's finalizer-removal expectations). Expectations older than five minutes
// are given up on, as Kubernetes does, so a lost event cannot stall a job for ever.

const expiryMs = 5 * 60_000;

interface Pending { adds: number; dels: number; since: number }

export class Expectations {
  private pending = new Map<string, Pending>();
  private finalizers = new Map<string, Set<string>>();
  private now: () => number;
  constructor(now: () => number = Date.now) { this.now = now; }

  satisfied(key: string): boolean {
    const p = this.pending.get(key);
    if (!p) return true;
    if ((p.adds <= 0 && p.dels <= 0) || this.now() - p.since > expiryMs) { this.pending.delete(key); return true; }
    return false;
  }

  private entry(key: string): Pending {
    let p = this.pending.get(key);
    if (!p) { p = { adds: 0, dels: 0, since: this.now() }; this.pending.set(key, p); }
    return p;
  }

  expectCreations(key: string, n = 1): void { const p = this.entry(key); p.adds += n; p.since = this.now(); }
  expectDeletions(key: string, n = 1): void { const p = this.entry(key); p.dels += n; p.since = this.now(); }
  creationObserved(key: string): void { const p = this.pending.get(key); if (p) p.adds--; }
  deletionObserved(key: string): void { const p = this.pending.get(key); if (p) p.dels--; }

  /** pod UIDs whose finalizer removal has been asked for and not yet seen */
  expectedFinalizerRemovals(key: string): Set<string> { return new Set(this.finalizers.get(key) ?? []); }
  expectFinalizerRemoval(key: string, uid: string): void {
    let s = this.finalizers.get(key);
    if (!s) { s = new Set(); this.finalizers.set(key, s); }
    s.add(uid);
  }
  finalizerRemovalObserved(key: string, uid: string): void {
    const s = this.finalizers.get(key);
    if (!s) return;
    s.delete(uid);
    if (s.size === 0) this.finalizers.delete(key);
  }

  forget(key: string): void { this.pending.delete(key); this.finalizers.delete(key); }
}
