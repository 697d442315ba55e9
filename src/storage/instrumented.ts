// A Storage that times each call to the one below it, for etcd_request_duration_seconds: where
// kube-apiserver times its etcd client's calls, orch times the backend (SQLite or etcd) under
// the watch cache, so only what reaches the backend is counted. The calls are labelled by the
// resource prefix of the key (`/registry/pods/`), from which the metrics take group and resource.

import { StorageError, type KeyValue, type RangeOptions, type RangeResult, type Storage, type WatchOptions, type Watcher } from './interface.ts';
import { resourcePrefixOf } from './cacher/prefixes.ts';

export type TimedOperation = 'get' | 'list' | 'create' | 'update' | 'delete';
export type StorageObserver = (operation: TimedOperation, prefix: string, seconds: number, failed: boolean) => void;

// answers a CAS or a read can give that are not failures of the store (etcd answers them too)
const expected = new Set(['key-exists', 'not-found', 'conflict']);

class InstrumentedStorage implements Storage {
  private inner: Storage;
  private observe: StorageObserver;
  constructor(inner: Storage, observe: StorageObserver) {
    this.inner = inner;
    this.observe = observe;
    if (inner.waitForRevision) this.waitForRevision = inner.waitForRevision.bind(inner);
  }

  waitForRevision?: Storage['waitForRevision'];

  private async timed<T>(operation: TimedOperation, key: string, call: Promise<T>): Promise<T> {
    const started = performance.now();
    const prefix = resourcePrefixOf(key) ?? '/';
    try {
      const out = await call;
      this.observe(operation, prefix, (performance.now() - started) / 1000, false);
      return out;
    } catch (err) {
      const failed = !(err instanceof StorageError && expected.has(err.code));
      this.observe(operation, prefix, (performance.now() - started) / 1000, failed);
      throw err;
    }
  }

  currentRevision(): Promise<number> { return this.inner.currentRevision(); }
  compactedRevision(): Promise<number> { return this.inner.compactedRevision(); }
  get(key: string, opts?: { revision?: number; allowStale?: boolean }): Promise<{ kv?: KeyValue; revision: number }> {
    return this.timed('get', key, this.inner.get(key, opts));
  }
  range(start: string, end: string, opts?: RangeOptions): Promise<RangeResult> {
    return this.timed('list', start, this.inner.range(start, end, opts));
  }
  create(key: string, value: Uint8Array): Promise<KeyValue> { return this.timed('create', key, this.inner.create(key, value)); }
  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<KeyValue> {
    return this.timed('update', key, this.inner.update(key, value, expectedModRevision));
  }
  delete(key: string, expectedModRevision?: number): Promise<{ prevKv: KeyValue; revision: number }> {
    return this.timed('delete', key, this.inner.delete(key, expectedModRevision));
  }
  watch(prefix: string, opts: WatchOptions): Watcher { return this.inner.watch(prefix, opts); }
  compact(revision: number): Promise<void> { return this.inner.compact(revision); }
  healthy(): Promise<boolean> { return this.inner.healthy(); }
  close(): Promise<void> { return this.inner.close(); }
}

export function instrumentStorage(inner: Storage, observe: StorageObserver): Storage {
  return new InstrumentedStorage(inner, observe);
}
