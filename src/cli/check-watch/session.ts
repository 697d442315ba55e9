// One watch-consistency run against a server: a scratch namespace, M logged watchers started from
// a list, N writers, then the end — writers stopped, a final list, one more write (the fence)
// after it, every watcher waited for until it has seen the fence, and the verdict. Split in two
// (begin, finish) so that a caller can do something in between, such as kill the server.

import { randomBytes } from 'node:crypto';
import { ApiError } from '../../client/api-error.ts';
import type { Client } from '../../client/rest.ts';
import { emptyOutcomes, type FinalList, type Violation } from './history.ts';
import type { CheckedResource } from './resources.ts';
import { verdict, type Fence } from './verdict.ts';
import { startLoggedWatcher } from './watcher.ts';
import { startWriters } from './writers.ts';

export interface WatchCheckOptions {
  resource: CheckedResource;
  writers: number;
  watchers: number;
  /** an existing namespace to write in; by default a scratch namespace is made and removed */
  namespace?: string;
  /** each watch request's server-side timeout is drawn from this range, in seconds; default [2, 8] */
  watchTimeoutSeconds?: [number, number];
  /** how long watchers get to see the last write; default 30 s */
  catchUpMs?: number;
  /** failures along the way that are not violations (a refused write, a watch that broke) */
  onError?: (message: string) => void;
  /** several clients (one per server, say): writers and watchers are spread over them */
  clients?: Client[];
}

export interface WatchCheckProgress {
  acknowledged: number;
  uncertain: number;
  events: number;
  relists: number;
}

export interface WatchCheckReport extends WatchCheckProgress {
  violations: Violation[];
  watchers: number;
  finalObjects: number;
  finalResourceVersion: string;
}

export interface WatchCheckSession {
  namespace: string;
  progress(): WatchCheckProgress;
  /** stop the writers, list, write the fence, wait for the watchers, judge; removes a scratch namespace */
  finish(): Promise<WatchCheckReport>;
}

const label = 'orch.io/check-watch';

/** a write the run itself needs (the fence): retried while the server is away or busy */
async function persist<T>(what: string, write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= 50 || (err instanceof ApiError && err.code < 500 && err.code !== 429 && err.code !== 409)) throw new Error(`${what}: ${(err as Error).message}`);
      await new Promise(r => setTimeout(r, 200));
    }
  }
}

export async function beginWatchCheck(client: Client, opts: WatchCheckOptions): Promise<WatchCheckSession> {
  const res = opts.resource;
  const clients = opts.clients?.length ? opts.clients : [client];
  const run = randomBytes(4).toString('hex');
  const scratch = !opts.namespace;
  const namespace = opts.namespace ?? `orch-check-watch-${run}`;
  if (scratch) await client.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { [label]: run } } });
  const path = `/api/v1/namespaces/${namespace}/${res.resource}`;
  const labels = { [label]: run };
  const outcomes = emptyOutcomes();
  const fenceName = `fence-${run}`;
  const fenceBody = (counter: number, resourceVersion?: string) => ({
    apiVersion: 'v1', kind: res.kind, metadata: { name: fenceName, labels, ...(resourceVersion ? { resourceVersion } : {}) }, ...res.payload(counter, 'fence'),
  });
  const fence = await client.create(path, fenceBody(0));
  outcomes.acked.push({ name: fenceName, op: 'create', resourceVersion: fence.metadata.resourceVersion, counter: 0 });

  const [lo, hi] = opts.watchTimeoutSeconds ?? [2, 8];
  const watchers = Array.from({ length: opts.watchers }, (_, i) => startLoggedWatcher(clients[i % clients.length]!, path, res, i, {
    labelSelector: `${label}=${run}`, timeoutSeconds: () => lo + Math.floor(Math.random() * (hi - lo + 1)), onError: opts.onError,
  }));
  await Promise.all(watchers.map(w => w.synced));
  // writers are spread over the clients as watchers are: each server sees writes and watches
  const share = (i: number) => Math.floor(opts.writers / clients.length) + (i < opts.writers % clients.length ? 1 : 0);
  let first = 0;
  const writerGroups = clients.map((c, i) => {
    const group = startWriters(c, path, res, share(i), { labels, first, onError: opts.onError }, outcomes);
    first += share(i);
    return group;
  });
  const progress = (): WatchCheckProgress => ({
    acknowledged: writerGroups.reduce((n, w) => n + w.acknowledged(), 0),
    uncertain: outcomes.uncertain.size,
    events: watchers.reduce((n, w) => n + w.events(), 0),
    relists: watchers.reduce((n, w) => n + w.relists(), 0),
  });

  return {
    namespace,
    progress,
    async finish() {
      await Promise.all(writerGroups.map(w => w.stop()));
      try {
        const list = await persist('the final list', () => client.list(path, { labelSelector: `${label}=${run}` }));
        const final: FinalList = {
          resourceVersion: list.metadata.resourceVersion,
          items: list.items.map((o: any) => ({ name: o.metadata.name, resourceVersion: o.metadata.resourceVersion, counter: res.counterOf(o) })),
        };
        const before = final.items.find(i => i.name === fenceName);
        if (!before) throw new Error(`the final list lacks ${fenceName}, the object the check wrote first`);
        const after = await persist(`the update of ${fenceName}`, () => client.update(`${path}/${fenceName}`, fenceBody((before.counter ?? 0) + 1, before.resourceVersion)));
        const last: Fence = { name: fenceName, resourceVersion: after.metadata.resourceVersion };
        outcomes.acked.push({ name: fenceName, op: 'update', resourceVersion: last.resourceVersion, counter: (before.counter ?? 0) + 1 });
        await Promise.all(watchers.map(w => w.reached(last.resourceVersion, opts.catchUpMs ?? 30_000)));
        for (const w of watchers) w.stop();
        return {
          ...progress(),
          violations: verdict(outcomes, watchers.map(w => w.log), final, last),
          watchers: watchers.length,
          finalObjects: final.items.length - 1,
          finalResourceVersion: final.resourceVersion,
        };
      } finally {
        for (const w of watchers) w.stop();
        if (scratch) await client.delete(`/api/v1/namespaces/${namespace}`).catch(err => opts.onError?.(`removing namespace ${namespace}: ${err.message}`));
      }
    },
  };
}

/** a whole run: begin, write for `durationMs` with a progress report every `everyMs`, finish */
export async function runWatchCheck(client: Client, opts: WatchCheckOptions & { durationMs: number; everyMs?: number; onProgress?: (p: WatchCheckProgress & { elapsedMs: number }) => void }): Promise<WatchCheckReport> {
  const session = await beginWatchCheck(client, opts);
  const began = Date.now();
  const ticker = opts.onProgress ? setInterval(() => opts.onProgress!({ ...session.progress(), elapsedMs: Date.now() - began }), opts.everyMs ?? 1000) : undefined;
  try {
    await new Promise(r => setTimeout(r, opts.durationMs));
  } finally {
    if (ticker) clearInterval(ticker);
  }
  return session.finish();
}
