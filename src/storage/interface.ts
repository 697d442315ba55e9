// The storage contract. It is shaped like etcd's KV API so that the SQLite backend and an
// etcd backend are interchangeable below the registry: every write gets a new global
// revision, reads can ask for a past revision, and watches resume from a revision.

export interface KeyValue {
  key: string;
  value: Uint8Array;
  /** revision of the write that created this key (since it last did not exist) */
  createRevision: number;
  /** revision of the last write to this key; this is an object's resourceVersion */
  modRevision: number;
}

/**
 * A hint that only keys whose indexed field has this value are wanted (pods by spec.nodeName).
 * Backends with such an index may skip other keys; callers filter results themselves anyway.
 */
export interface IndexHint {
  name: string;
  value: string;
}

export interface RangeOptions {
  /** only keys with this indexed value are wanted (newest-state reads may use it) */
  index?: IndexHint;
  /** read as of this revision; 0 or absent means the newest */
  revision?: number;
  /** at most this many keys; the result says whether more exist */
  limit?: number;
}

export interface RangeResult {
  kvs: KeyValue[];
  /** the revision the read was served at */
  revision: number;
  /** more keys exist in the range past the last one returned */
  more: boolean;
  /** number of keys in the whole range at that revision */
  count: number;
}

export interface WatchEvent {
  type: 'put' | 'delete';
  /** for a delete: the key with the deleting revision as modRevision and an empty value */
  kv: KeyValue;
  /** the value before this write, when there was one */
  prevKv?: KeyValue;
}

export interface Watcher {
  cancel(): void;
  /**
   * Optional: ask for a progress notification (onProgress) as soon as every change up to the
   * store's current revision has been delivered; backends without it simply omit the member.
   */
  requestProgress?(): void;
}

export interface WatchOptions {
  /** deliver events with revision > afterRevision (history first, then live) */
  afterRevision: number;
  /** only events whose key had or now has this indexed value are wanted */
  index?: IndexHint;
  /**
   * If this returns a promise, implementations that queue per watcher (the watch cache) treat
   * it as backpressure: the next batch waits for it, and a watcher that falls too far behind ends.
   */
  onEvents(events: WatchEvent[]): void;
  /** the watch ended: compacted history (StorageError code 'compacted') or the backend closed */
  onError(err: Error): void;
  /**
   * Optional: every change up to `revision` has been delivered (the source of watch bookmarks).
   * Called when the store moved on without events for this watcher, or after requestProgress().
   */
  onProgress?(revision: number): void;
}

export type StorageErrorCode = 'key-exists' | 'not-found' | 'conflict' | 'compacted' | 'future-revision' | 'unavailable' | 'corrupt' | 'too-large';

export class StorageError extends Error {
  code: StorageErrorCode;
  /** for 'conflict' and 'key-exists': the current value; for 'compacted': the compacted revision */
  current?: KeyValue;
  revision?: number;
  /** for 'corrupt': the key whose value could not be decoded; for 'too-large': the key written */
  key?: string;
  constructor(code: StorageErrorCode, message: string, extra?: { current?: KeyValue; revision?: number; key?: string }) {
    super(message);
    this.name = 'StorageError';
    this.code = code;
    this.current = extra?.current;
    this.revision = extra?.revision;
    this.key = extra?.key;
  }
}

/** One backend. Keys are strings; ranges are [start, end) in byte order. */
export interface Storage {
  /** the newest revision of the whole store */
  currentRevision(): Promise<number>;
  /**
   * Optional: resolves true as soon as reads see `revision`, false after `timeoutMs` (a store with
   * a cache in front says when its cache gets there, rather than being asked again and again)
   */
  waitForRevision?(revision: number, timeoutMs: number): Promise<boolean>;
  /** the oldest revision still readable (everything older was compacted) */
  compactedRevision(): Promise<number>;
  /**
   * `allowStale`: a store with a cache in front may answer from it without first confirming it
   * has seen every write (admission-style checks that Kubernetes answers from informers)
   */
  get(key: string, opts?: { revision?: number; allowStale?: boolean }): Promise<{ kv?: KeyValue; revision: number }>;
  range(start: string, end: string, opts?: RangeOptions): Promise<RangeResult>;
  /** fails with 'key-exists' when the key exists */
  create(key: string, value: Uint8Array): Promise<KeyValue>;
  /** compare-and-swap: fails with 'conflict' (carrying the current value) unless modRevision matches; 'not-found' when absent */
  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<KeyValue>;
  /** deletes when modRevision matches (or unconditionally when absent); returns the deleted value and the delete's revision */
  delete(key: string, expectedModRevision?: number): Promise<{ prevKv: KeyValue; revision: number }>;
  watch(prefix: string, opts: WatchOptions): Watcher;
  /** forget history older than revision (the newest value of each live key is always kept) */
  compact(revision: number): Promise<void>;
  /** true when the backend answers; used by health checks */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

/** the end of the range holding every key that starts with prefix */
export function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
