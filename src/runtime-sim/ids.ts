// Sandboxes and containers by id. Like containerd, a unique prefix of an id finds the object
// (crictl users type the first few digits); an ambiguous or unknown one finds nothing.

export class IdIndex<T> {
  readonly #items = new Map<string, T>();

  add(id: string, item: T): void {
    this.#items.set(id, item);
  }

  delete(id: string): void {
    this.#items.delete(id);
  }

  /** the item whose id is or starts with idOrPrefix, when exactly one does */
  find(idOrPrefix: string): T | undefined {
    if (idOrPrefix === '') return undefined;
    const exact = this.#items.get(idOrPrefix);
    if (exact !== undefined) return exact;
    let found: T | undefined;
    for (const [id, item] of this.#items) {
      if (!id.startsWith(idOrPrefix)) continue;
      if (found !== undefined) return undefined;
      found = item;
    }
    return found;
  }

  /** in creation order */
  values(): T[] {
    return [...this.#items.values()];
  }

  get size(): number {
    return this.#items.size;
  }
}

/** names are reserved per runtime, so a second sandbox or container of one name is refused */
export class NameRegistry {
  readonly #owners = new Map<string, string>();

  /** the id already holding name, or undefined once name is reserved for id */
  reserve(name: string, id: string): string | undefined {
    const owner = this.#owners.get(name);
    if (owner !== undefined && owner !== id) return owner;
    this.#owners.set(name, id);
    return undefined;
  }

  release(name: string): void {
    this.#owners.delete(name);
  }
}
