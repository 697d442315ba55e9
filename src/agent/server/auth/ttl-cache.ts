// A small expiring map for the answers the agent asks the API server for (token reviews, access
// reviews): each entry carries its own lifetime, since allowed and denied answers keep for
// different times. Size-bounded so a flood of distinct tokens cannot grow it without end.

export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private readonly now: () => number;
  private readonly max: number;
  constructor(now: () => number = Date.now, max = 4096) { this.now = now; this.max = max; }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= this.now()) { this.entries.delete(key); return undefined; }
    return e.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expires: this.now() + ttlMs });
  }
}
