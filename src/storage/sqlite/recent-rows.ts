// The newest row of recently used keys, in memory. Every write checks the key's current row
// (create-if-absent, compare-and-swap), and most writes touch keys written or read shortly
// before; the backend holds the file exclusively, so this cache can never be stale.
// Rows written by the transaction in progress are staged and become visible to readers only
// once COMMIT has returned.

import type { Row } from './schema.ts';

/** null: the key is known to be absent */
type Entry = Row | null;

export class RecentRows {
  private committed = new Map<string, Entry>();
  private staged = new Map<string, Entry>();
  private max: number;

  constructor(max = 20_000) {
    this.max = max;
  }

  /** the committed newest row, or undefined when the cache does not know the key */
  get(key: string): Entry | undefined {
    const hit = this.committed.get(key);
    if (hit !== undefined) {
      // move to the young end
      this.committed.delete(key);
      this.committed.set(key, hit);
    }
    return hit;
  }

  /** inside a write transaction: the staged row wins over the committed one */
  getForWrite(key: string): Entry | undefined {
    return this.staged.has(key) ? this.staged.get(key) : this.get(key);
  }

  remember(key: string, row: Entry): void {
    this.committed.delete(key);
    this.committed.set(key, row);
    if (this.committed.size > this.max) this.committed.delete(this.committed.keys().next().value!);
  }

  stage(key: string, row: Entry): void {
    this.staged.set(key, row);
  }

  commitStaged(): void {
    for (const [key, row] of this.staged) this.remember(key, row);
    this.staged.clear();
  }

  dropStaged(): void {
    this.staged.clear();
  }
}
