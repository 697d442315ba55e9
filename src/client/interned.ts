// Equal read-only values shared by the many objects an informer keeps. Tens of thousands of
// pods tend to repeat a handful of specs (one per workload and node), so a view that keeps the
// parts it reads as interned values costs one copy per distinct value instead of one per pod.
// Entries go when nothing holds their value any more, so the table never outgrows its users.

export class Interned<T extends object> {
  private byKey = new Map<string, WeakRef<T>>();
  private gone = new FinalizationRegistry<string>(key => {
    if (this.byKey.get(key)?.deref() === undefined) this.byKey.delete(key);
  });

  /** the shared value equal to `value` (compared as JSON), frozen */
  of(value: T): T {
    const key = JSON.stringify(value);
    const held = this.byKey.get(key)?.deref();
    if (held) return held;
    const frozen = deepFreeze(value);
    this.byKey.set(key, new WeakRef(frozen));
    this.gone.register(frozen, key);
    return frozen;
  }

  get size(): number { return this.byKey.size; }
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}
