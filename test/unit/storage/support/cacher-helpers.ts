// Helpers for the watch cache tests: a SQLite backend in a temp dir, a wrapper that counts
// which calls reach the backend, and event collection.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '../../../../src/storage/sqlite/store.ts';
import type { Storage, WatchEvent, Watcher, WatchOptions } from '../../../../src/storage/interface.ts';

export const enc = (s: string) => new TextEncoder().encode(s);
export const dec = (b: Uint8Array) => new TextDecoder().decode(b);

let dir: string | undefined;
let n = 0;

export async function openInner(): Promise<Storage> {
  dir ??= await mkdtemp(join(tmpdir(), 'orch-cacher-unit-'));
  return openSqliteStorage({ path: join(dir, `db${n++}.sqlite`) });
}

export async function removeTemp(): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

export type Calls = Record<'range' | 'get' | 'watch', number>;

/** the backend with a count of the reads and watches that reach it */
export function counting(inner: Storage): { storage: Storage; calls: Calls } {
  const calls: Calls = { range: 0, get: 0, watch: 0 };
  const storage: Storage = {
    currentRevision: () => inner.currentRevision(),
    compactedRevision: () => inner.compactedRevision(),
    get: (k, o) => { calls.get++; return inner.get(k, o); },
    range: (s, e, o) => { calls.range++; return inner.range(s, e, o); },
    create: (k, v) => inner.create(k, v),
    update: (k, v, r) => inner.update(k, v, r),
    delete: (k, r) => inner.delete(k, r),
    watch: (p, o) => { calls.watch++; return inner.watch(p, o); },
    compact: r => inner.compact(r),
    healthy: () => inner.healthy(),
    close: () => inner.close(),
  };
  return { storage, calls };
}

export interface Collected {
  events: WatchEvent[];
  progress: number[];
  error?: Error;
  watcher: Watcher;
}

export function collect(s: Storage, prefix: string, afterRevision: number, extra: Partial<WatchOptions> = {}): Collected {
  const c = { events: [] as WatchEvent[], progress: [] as number[] } as unknown as Collected;
  c.watcher = s.watch(prefix, {
    afterRevision,
    onEvents: e => { c.events.push(...e); },
    onError: e => { c.error = e; },
    onProgress: r => { c.progress.push(r); },
    ...extra,
  });
  return c;
}

export async function until(pred: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 5));
  }
}

export const revisions = (events: readonly WatchEvent[]) => events.map(e => e.kv.modRevision);
