// The recent events of one resource prefix, oldest first. It serves two needs: watches that
// resume from a recent revision replay from it, and reads at a recent revision rebuild their
// snapshot from it (see snapshots.ts). It is bounded by a count and by age; what falls off
// raises `floor`, the oldest revision it can still answer for.

import type { KeyValue, WatchEvent } from '../interface.ts';

export interface BufferedEvent {
  revision: number;
  /** when the cache received it (for the age bound) */
  at: number;
  event: WatchEvent;
  /** the key's value just before this event, as the cache held it */
  before: KeyValue | undefined;
}

export class EventBuffer {
  private items: BufferedEvent[] = [];
  private head = 0;
  /** every event with a revision above this is still held */
  floor: number;

  constructor(startRevision: number) {
    this.floor = startRevision;
  }

  get length(): number { return this.items.length - this.head; }

  get newest(): BufferedEvent | undefined { return this.length ? this.items[this.items.length - 1] : undefined; }

  push(e: BufferedEvent): void {
    this.items.push(e);
  }

  /** the position of the first held event with revision > `revision` */
  firstAfter(revision: number): number {
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid]!.revision <= revision) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /** held events from a position returned by firstAfter, oldest first */
  *from(pos: number): Generator<BufferedEvent> {
    for (let i = Math.max(pos, this.head); i < this.items.length; i++) yield this.items[i]!;
  }

  /**
   * Drops events past the count bound, older than the age bound, or below the backend's
   * compacted revision (history a backend would no longer answer for).
   */
  trim(now: number, maxEvents: number, windowMs: number, compacted: number): number {
    let dropped = 0;
    while (this.length > 0) {
      const oldest = this.items[this.head]!;
      if (this.length <= maxEvents && now - oldest.at <= windowMs && oldest.revision >= compacted) break;
      this.floor = Math.max(this.floor, oldest.revision);
      this.items[this.head++] = undefined as unknown as BufferedEvent;
      dropped++;
    }
    // reclaim the dropped head once it is a large share of the array
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return dropped;
  }
}
