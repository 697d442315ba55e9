// List, then watch from the list's version; resume after a disconnect from the last version
// seen, and list again when the server says that version is gone (410).

import type { Logger } from '../api/log.ts';
import type { Client, WatchEvent } from './rest.ts';

export interface ListWatchHandlers {
  /** the full current state, after every (re-)list */
  listed(items: any[]): void;
  event(e: WatchEvent): void;
}

export function runListWatch(client: Client, path: string, handlers: ListWatchHandlers, opts: { log?: Logger; maxBackoffMs?: number } = {}): { stop(): void } {
  let stopped = false;
  let rv: string | undefined;
  let current: { stop(): void } | undefined;
  let backoff = 200;
  const sep = path.includes('?') ? '&' : '?';
  const retry = (fn: () => void) => {
    if (stopped) return;
    setTimeout(fn, backoff).unref();
    backoff = Math.min(backoff * 2, opts.maxBackoffMs ?? 5000);
  };
  const list = () => {
    if (stopped) return;
    client.request(`GET`, path).then(l => {
      rv = l.metadata.resourceVersion;
      handlers.listed(l.items);
      watch();
    }, err => { opts.log?.debug('list failed', { path, err: String(err) }); retry(list); });
  };
  const watch = () => {
    if (stopped) return;
    current = client.watch(`${path}${sep}watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`, e => {
      backoff = 200;
      if (e.type === 'ERROR') {
        current?.stop();
        rv = undefined;
        return retry(list);
      }
      rv = e.object?.metadata?.resourceVersion ?? rv;
      if (e.type !== 'BOOKMARK') handlers.event(e);
    }, err => {
      if (stopped) return;
      if (err && (err as { code?: number }).code === 410) { rv = undefined; return retry(list); }
      retry(rv ? watch : list);
    });
  };
  list();
  return { stop() { stopped = true; current?.stop(); } };
}
