// A watcher that behaves as client-go's reflector does and writes down everything it is told:
// list (in pages), watch from the list's resourceVersion with bookmarks, resume from the last
// resourceVersion seen when a watch ends (cleanly or with a broken connection), and list again
// when the server answers 410. Short server-side timeouts make it resume often, which is where
// gaps and duplicates hide.

import { Backoff } from '../../api/backoff.ts';
import { apiErrorFromWatchEvent, isGone } from '../../client/api-error.ts';
import type { Client, WatchHandle } from '../../client/rest.ts';
import type { WatchEvent } from '../../client/watch.ts';
import type { LogEntry, ObjectState, WatcherLog } from './history.ts';
import type { CheckedResource } from './resources.ts';

export interface LoggedWatcher {
  log: WatcherLog;
  /** resolves once the first list is written down */
  synced: Promise<void>;
  /** the newest resourceVersion seen (list, event or bookmark) */
  lastResourceVersion(): string | undefined;
  events(): number;
  relists(): number;
  /** resolves when the watcher has seen resourceVersion `rv` or later; false after timeoutMs */
  reached(rv: string, timeoutMs: number): Promise<boolean>;
  stop(): void;
}

export interface WatcherOptions {
  labelSelector: string;
  /** the server-side timeout of each watch request, in seconds */
  timeoutSeconds: () => number;
  onError?: (message: string) => void;
}

export function startLoggedWatcher(client: Client, path: string, res: CheckedResource, id: number, opts: WatcherOptions): LoggedWatcher {
  const log: WatcherLog = { id, entries: [] };
  const backoff = new Backoff({ initialMs: 50, maxMs: 400, jitter: 1 });
  let rv: string | undefined;
  let stopped = false;
  let current: WatchHandle | undefined;
  let timer: NodeJS.Timeout | undefined;
  let events = 0;
  let lists = 0;
  let waiters: Array<() => void> = [];
  let resolveSynced!: () => void;
  const synced = new Promise<void>(r => { resolveSynced = r; });

  const record = (e: LogEntry) => {
    log.entries.push(e);
    rv = e.resourceVersion;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  const later = (fn: () => void) => { if (!stopped) timer = setTimeout(fn, backoff.next()); };
  const state = (o: any): ObjectState => ({ name: o.metadata.name, resourceVersion: o.metadata.resourceVersion, counter: res.counterOf(o) });

  async function listAll(): Promise<void> {
    const items: ObjectState[] = [];
    let version = '';
    let cont: string | undefined;
    do {
      const page = await client.list(path, { labelSelector: opts.labelSelector, limit: 500, continue: cont });
      if (!version) version = page.metadata.resourceVersion;
      for (const o of page.items ?? []) items.push(state(o));
      cont = page.metadata.continue || undefined;
    } while (cont);
    if (stopped) return;
    lists++;
    record({ kind: 'list', resourceVersion: version, items });
    resolveSynced();
  }

  function list(): void {
    if (stopped) return;
    listAll().then(() => { backoff.reset(); watch(); }, err => { opts.onError?.(`watcher ${id}: list failed: ${err.message}`); later(list); });
  }

  function onEvent(e: WatchEvent): void {
    if (stopped) return;
    if (e.type === 'ERROR') {
      const err = apiErrorFromWatchEvent(e.object);
      current?.stop();
      current = undefined;
      if (isGone(err)) return later(list);
      opts.onError?.(`watcher ${id}: watch error: ${err.message}`);
      return later(watch);
    }
    backoff.reset();
    if (e.type === 'BOOKMARK') return record({ kind: 'bookmark', resourceVersion: e.object.metadata.resourceVersion });
    events++;
    record({ kind: 'event', type: e.type, ...state(e.object) });
  }

  function watch(): void {
    if (stopped) return;
    const began = Date.now();
    current = client.watch(path, { labelSelector: opts.labelSelector, resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds: opts.timeoutSeconds() }, onEvent, err => {
      current = undefined;
      if (stopped) return;
      if (!err) return Date.now() - began > 500 ? watch() : later(watch);
      if (isGone(err)) return later(list);
      later(watch);
    });
  }

  list();
  return {
    log,
    synced,
    lastResourceVersion: () => rv,
    events: () => events,
    relists: () => Math.max(0, lists - 1),
    reached(target, timeoutMs) {
      const done = () => rv !== undefined && BigInt(rv) >= BigInt(target);
      if (done()) return Promise.resolve(true);
      return new Promise(resolve => {
        const t = setTimeout(() => resolve(false), timeoutMs);
        const check = () => { if (done()) { clearTimeout(t); resolve(true); } else waiters.push(check); };
        waiters.push(check);
      });
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      current?.stop();
      current = undefined;
      resolveSynced();
    },
  };
}
