// What a controller wrote, remembered until its informer has seen it. A controller decides from
// its informer's copy; right after its own write that copy may still be older, and deciding from
// it would repeat a create or undo an update. Kubernetes' controllers keep the same record (the
// EndpointSlice tracker, the endpoints controller's stale-endpoints tracker) and wait until the
// cache caught up.

interface Versioned { metadata?: { name?: string; resourceVersion?: string } }

const newer = (a: string, b: string) => (/^\d+$/.test(a) && /^\d+$/.test(b) ? BigInt(a) > BigInt(b) : a !== b);

/** a write the cache has not shown after this long was overtaken by someone else's */
const patienceMs = 10_000;

export class WrittenVersions {
  /** per owner key: object name → the resourceVersion written (null once deleted) and when */
  private written = new Map<string, Map<string, { rv: string | null; at: number }>>();

  private now: () => number;
  constructor(now: () => number = Date.now) { this.now = now; }

  wrote(owner: string, obj: Versioned): void {
    const name = obj.metadata?.name, rv = obj.metadata?.resourceVersion;
    if (name && rv) this.entries(owner).set(name, { rv, at: this.now() });
  }

  deleted(owner: string, name: string): void {
    this.entries(owner).set(name, { rv: null, at: this.now() });
  }

  /** true while the cache lacks one of the owner's writes; entries the cache reflects are dropped */
  stale(owner: string, cached: (name: string) => Versioned | undefined): boolean {
    const mine = this.written.get(owner);
    if (!mine) return false;
    for (const [name, { rv, at }] of mine) {
      const seen = cached(name)?.metadata?.resourceVersion;
      const caughtUp = rv === null ? seen === undefined : seen !== undefined && !newer(rv, seen);
      if (caughtUp || this.now() - at > patienceMs) mine.delete(name);
    }
    if (!mine.size) this.written.delete(owner);
    return mine.size > 0;
  }

  forget(owner: string): void {
    this.written.delete(owner);
  }

  private entries(owner: string): Map<string, { rv: string | null; at: number }> {
    let m = this.written.get(owner);
    if (!m) this.written.set(owner, m = new Map());
    return m;
  }
}
