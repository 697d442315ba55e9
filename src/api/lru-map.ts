// A bounded map that forgets its least recently used key first (a Map keeps insertion order, so
// a key used again is moved to the end), for the caches client-go and controllers keep bounded.

export class LruMap<K, V> {
  readonly #m = new Map<K, V>();
  readonly #capacity: number;

  constructor(capacity: number) { this.#capacity = capacity; }

  get size(): number { return this.#m.size; }

  /** the key's value, which is now the most recently used */
  get(key: K): V | undefined {
    const v = this.#m.get(key);
    if (v !== undefined) { this.#m.delete(key); this.#m.set(key, v); }
    return v;
  }

  /** sets the key as the most recently used, forgetting the least recently used past the capacity */
  set(key: K, value: V): void {
    this.#m.delete(key);
    this.#m.set(key, value);
    if (this.#m.size > this.#capacity) this.#m.delete(this.#m.keys().next().value!);
  }
}
