// In-process fan-out of committed events to watchers, by key prefix. Delivery is asynchronous
// (a microtask after commit) but in revision order per watcher.

import type { WatchEvent, WatchOptions } from '../interface.ts';

interface Entry { prefix: string; opts: WatchOptions; queue: WatchEvent[]; scheduled: boolean; cancelled: boolean }

export class WatchHub {
  private watchers = new Set<Entry>();

  add(prefix: string, opts: WatchOptions, backlog: WatchEvent[]): Entry {
    const e: Entry = { prefix, opts, queue: [], scheduled: false, cancelled: false };
    this.watchers.add(e);
    this.enqueue(e, backlog);
    return e;
  }

  remove(e: Entry): void {
    e.cancelled = true;
    this.watchers.delete(e);
  }

  publish(events: WatchEvent[]): void {
    if (events.length === 0) return;
    for (const w of this.watchers) {
      // a watch that starts after a revision not yet written skips events up to it
      const mine = events.filter(ev => ev.kv.key.startsWith(w.prefix) && ev.kv.modRevision > w.opts.afterRevision);
      if (mine.length) this.enqueue(w, mine);
    }
  }

  /** the backend is closing: every watch ends */
  closeAll(err: Error): void {
    for (const w of this.watchers) {
      this.remove(w);
      queueMicrotask(() => w.opts.onError(err));
    }
  }

  private enqueue(w: Entry, events: WatchEvent[]): void {
    if (events.length === 0) return;
    w.queue.push(...events);
    if (w.scheduled) return;
    w.scheduled = true;
    queueMicrotask(() => {
      w.scheduled = false;
      const batch = w.queue;
      w.queue = [];
      if (w.cancelled || batch.length === 0) return;
      try {
        w.opts.onEvents(batch);
      } catch (err) {
        // a failing watcher ends alone; the writer and the other watchers go on
        this.remove(w);
        w.opts.onError(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }
}
