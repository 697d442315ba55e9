// Pod status written back to the API: the newest status per pod, written when it differs from
// what was last written, one write per pod at a time and a few pods at once. A status field
// that disappears is cleared explicitly (the write is a JSON merge patch). Static pods write to
// their mirror pod, found by name.

import type { Logger } from '../../api/log.ts';
import { ApiError } from '../../client/api-error.ts';
import type { Client } from '../../client/rest.ts';
import type { Pod, PodStatus } from './types.ts';

export interface StatusManager {
  set(pod: Pod, status: PodStatus): void;
  /** the status last computed for a pod (written or not) */
  get(uid: string): PodStatus | undefined;
  /** resolves when every status set so far is written (or given up) */
  flush(uid?: string): Promise<void>;
  forget(uid: string): void;
}

export function startStatusManager(client: Client | undefined, log: Logger, parallel = 16): StatusManager {
  const wanted = new Map<string, { pod: Pod; status: PodStatus }>();
  const written = new Map<string, string>();
  const writtenStatus = new Map<string, PodStatus>();
  const queue: string[] = [];
  const queued = new Set<string>();
  const idle = new Map<string, Array<() => void>>();
  const busy = new Set<string>();

  const notify = (uid: string) => {
    if (queued.has(uid) || busy.has(uid)) return;
    for (const fn of idle.get(uid) ?? []) fn();
    idle.delete(uid);
  };

  async function write(uid: string): Promise<void> {
    const w = wanted.get(uid);
    if (!w || !client) return;
    const text = JSON.stringify(w.status);
    if (written.get(uid) === text) return;
    const before = writtenStatus.get(uid) ?? w.pod.status ?? {};
    // a merge patch: fields written before and gone now are cleared
    const patch: Record<string, unknown> = { ...w.status };
    for (const k of Object.keys(before)) if (!(k in patch)) patch[k] = null;
    const m = w.pod.metadata;
    try {
      await client.patch(`/api/v1/namespaces/${encodeURIComponent(m.namespace)}/pods/${encodeURIComponent(m.name)}/status`, { status: patch });
      written.set(uid, text);
      writtenStatus.set(uid, w.status);
    } catch (err) {
      // a pod deleted meanwhile has no status to keep; anything else is tried again on the next set
      if (!(err instanceof ApiError && err.code === 404)) log.warn('pod status not written', { pod: `${m.namespace}/${m.name}`, err: String(err) });
    }
  }

  function pump(): void {
    // one write per pod at a time, so a pod's statuses land in order
    for (let i = 0; busy.size < parallel && i < queue.length;) {
      const uid = queue[i]!;
      if (busy.has(uid)) { i++; continue; }
      queue.splice(i, 1);
      queued.delete(uid);
      busy.add(uid);
      void write(uid).finally(() => {
        busy.delete(uid);
        notify(uid);
        pump();
      });
    }
  }

  return {
    set(pod, status) {
      const uid = pod.metadata.uid;
      wanted.set(uid, { pod, status });
      if (written.get(uid) === JSON.stringify(status)) return;
      if (!queued.has(uid)) { queued.add(uid); queue.push(uid); }
      pump();
    },
    get: uid => wanted.get(uid)?.status,
    flush(uid) {
      const uids = uid ? [uid] : [...queued, ...busy];
      return Promise.all(uids.filter(u => queued.has(u) || busy.has(u)).map(u => new Promise<void>(r => idle.set(u, [...(idle.get(u) ?? []), r])))).then(() => undefined);
    },
    forget(uid) {
      wanted.delete(uid);
      written.delete(uid);
      writtenStatus.delete(uid);
    },
  };
}
