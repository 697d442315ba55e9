// An informer: list, then watch from the list's resourceVersion, keeping an in-memory copy of
// the collection and telling handlers what changed. A watch that ends is resumed from the last
// version seen (bookmarks included); when the server no longer has that version (410 Gone,
// as an HTTP error or an ERROR event) the collection is listed afresh and compared with the copy.

import type { Logger } from '../api/log.ts';
import { Backoff } from '../api/backoff.ts';
import { apiErrorFromWatchEvent, isGone } from './api-error.ts';
import type { Query } from './paths.ts';
import type { Client, WatchHandle } from './rest.ts';
import type { WatchEvent } from './watch.ts';

export interface InformerOptions {
  labelSelector?: string;
  fieldSelector?: string;
  log?: Logger;
  /** items per list page (0: unpaged); default 500, as client-go's pager */
  pageSize?: number;
  /** the first retry's delay after a failed list or watch, before jitter; default 200 ms */
  minBackoffMs?: number;
  /** the longest delay before jitter; default 30 s, as client-go's reflectors */
  maxBackoffMs?: number;
  /** the server ends each watch after about this long; default 5–10 minutes, random */
  watchTimeoutSeconds?: () => number;
  /**
   * applied to every object before it is kept or handed to handlers: an informer over many
   * objects keeps only what its owner reads (as client-go's transform functions do)
   */
  transform?: (obj: any) => any;
  /**
   * objects as PartialObjectMetadata (kind and apiVersion are the view's, metadata whole), as
   * client-go's metadata informers list and watch them: far less to hold for every object
   */
  metadataOnly?: boolean;
}

const metadataListAccept = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const metadataAccept = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

export interface Informer<T = any> {
  /** an add handler registered after the first list still hears of every object held (as client-go's) */
  on(event: 'add', fn: (obj: T) => void): Informer<T>;
  on(event: 'update', fn: (oldObj: T, newObj: T) => void): Informer<T>;
  on(event: 'delete', fn: (obj: T) => void): Informer<T>;
  start(): void;
  stop(): void;
  hasSynced(): boolean;
  /** resolves after the first list has been delivered */
  synced(): Promise<void>;
  get(key: string): T | undefined;
  list(): T[];
  /** the last resourceVersion seen (list, event or bookmark) */
  lastResourceVersion(): string | undefined;
}

interface Meta { metadata?: { name?: string; namespace?: string; resourceVersion?: string } }

/** namespace/name, or name for cluster-scoped objects */
export function objectKey(obj: Meta): string {
  const m = obj.metadata ?? {};
  return m.namespace ? `${m.namespace}/${m.name}` : String(m.name);
}

export function createInformer<T extends Meta = any>(client: Client, path: string, opts: InformerOptions = {}): Informer<T> {
  const store = new Map<string, T>();
  const handlers = { add: [] as Array<(o: T) => void>, update: [] as Array<(a: T, b: T) => void>, delete: [] as Array<(o: T) => void> };
  const selectors: Query = { labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector };
  // retries of a failed list or watch double up to the cap, each lengthened by up to itself
  // again, as client-go's reflectors jitter theirs (wait.Backoff's Jitter 1.0: [d, 2d))
  const backoff = new Backoff({ initialMs: opts.minBackoffMs ?? 200, maxMs: opts.maxBackoffMs ?? 30_000, jitter: 1 });
  const watchTimeout = opts.watchTimeoutSeconds ?? (() => Math.floor(300 * (1 + Math.random())));
  const transform = opts.transform ?? ((o: T) => o);
  let rv: string | undefined;
  let started = false;
  let stopped = false;
  let hasSynced = false;
  let current: WatchHandle | undefined;
  let timer: NodeJS.Timeout | undefined;
  let resolveSynced!: () => void;
  const syncedPromise = new Promise<void>(r => { resolveSynced = r; });

  const emit = (fn: () => void) => {
    try { fn(); } catch (err) { opts.log?.error('informer handler failed', { path, err: String(err) }); }
  };
  const added = (o: T) => handlers.add.forEach(h => emit(() => h(o)));
  const updated = (a: T, b: T) => handlers.update.forEach(h => emit(() => h(a, b)));
  const deleted = (o: T) => handlers.delete.forEach(h => emit(() => h(o)));

  const later = (fn: () => void) => {
    if (stopped) return;
    timer = setTimeout(fn, backoff.next());
    timer.unref();
  };

  async function listAll(): Promise<{ items: T[]; resourceVersion: string }> {
    const items: T[] = [];
    let cont: string | undefined;
    let version = '';
    do {
      const query: Query = { ...selectors, limit: (opts.pageSize ?? 500) || undefined, continue: cont };
      type Page = { items?: T[]; metadata?: { resourceVersion?: string; continue?: string } };
      const page = opts.metadataOnly
        ? await client.request<Page>('GET', path, undefined, { query, headers: { accept: metadataListAccept } })
        : await client.list<Page>(path, query);
      if (!version) version = page.metadata?.resourceVersion ?? '';
      for (const item of page.items ?? []) items.push(transform(item));
      cont = page.metadata?.continue || undefined;
    } while (cont);
    return { items, resourceVersion: version };
  }

  /** makes the copy equal to a fresh list, telling handlers the differences */
  function replace(items: T[]): void {
    const seen = new Set<string>();
    for (const obj of items) {
      const key = objectKey(obj);
      seen.add(key);
      const old = store.get(key);
      store.set(key, obj);
      if (!old) added(obj);
      else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) updated(old, obj);
    }
    for (const [key, old] of store) if (!seen.has(key)) { store.delete(key); deleted(old); }
  }

  function list(): void {
    if (stopped) return;
    listAll().then(({ items, resourceVersion }) => {
      if (stopped) return;
      rv = resourceVersion;
      replace(items);
      backoff.reset();
      if (!hasSynced) { hasSynced = true; resolveSynced(); }
      watch();
    }, err => {
      opts.log?.warn('list failed; retrying', { path, err: String(err) });
      later(list);
    });
  }

  function onEvent(e: WatchEvent<T>): void {
    if (e.type === 'ERROR') {
      const err = apiErrorFromWatchEvent(e.object);
      current?.stop();
      current = undefined;
      if (isGone(err)) { opts.log?.info('watch version expired; listing again', { path, resourceVersion: rv }); rv = undefined; return later(list); }
      opts.log?.warn('watch error; resuming', { path, err: err.message });
      return later(watch);
    }
    backoff.reset();
    const version = e.object?.metadata?.resourceVersion;
    if (version) rv = version;
    if (e.type === 'BOOKMARK') return;
    const obj: T = transform(e.object);
    const key = objectKey(obj);
    const old = store.get(key);
    if (e.type === 'DELETED') {
      store.delete(key);
      deleted(obj);
    } else {
      store.set(key, obj);
      if (old) updated(old, obj); else added(obj);
    }
  }

  function watch(): void {
    if (stopped) return;
    const query: Query = { ...selectors, resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds: watchTimeout() };
    const began = Date.now();
    current = client.watch(path, query, onEvent, err => {
      current = undefined;
      if (stopped) return;
      // the server's timeout: carry on from where we are (at once, unless it ended at once)
      if (!err) return Date.now() - began > 1000 ? watch() : later(watch);
      if (isGone(err)) { rv = undefined; return later(list); }
      opts.log?.debug('watch ended; resuming', { path, resourceVersion: rv, err: String(err) });
      later(rv ? watch : list);
    }, opts.metadataOnly ? metadataAccept : undefined);
  }

  const informer: Informer<T> = {
    on(event: 'add' | 'update' | 'delete', fn: any) {
      (handlers[event] as unknown[]).push(fn);
      // a handler that comes late (the informer is shared) is told of what is already held
      if (event === 'add' && hasSynced) for (const o of store.values()) emit(() => fn(o));
      return informer;
    },
    start() {
      if (started) return;
      started = true;
      list();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      current?.stop();
      current = undefined;
    },
    hasSynced: () => hasSynced,
    synced: () => syncedPromise,
    get: key => store.get(key),
    list: () => [...store.values()],
    lastResourceVersion: () => rv,
  };
  return informer;
}
