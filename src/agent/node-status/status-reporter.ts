// Registers the node and keeps its status true: the status is computed every
// nodeStatusUpdateFrequency and written when something other than heartbeat times changed, or
// when nodeStatusReportFrequency passed since the last write. The lease, not the status, is the
// heartbeat the control plane watches (lease.ts).

import type { Logger } from '../../api/log.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../../client/api-error.ts';
import type { Client } from '../../client/rest.ts';
import type { Clock } from '../clock.ts';
import { Backoff } from '../../api/backoff.ts';
import { conditionsChanged, stampConditions, type ObservedCondition } from './conditions.ts';
import type { Node, NodeStatus } from './node-object.ts';
import { rfc3339 } from '../../api/time.ts';

export interface Observation {
  /** the status without conditions */
  status: Omit<NodeStatus, 'conditions'>;
  conditions: ObservedCondition[];
}

export interface StatusReporterOptions {
  client: Client;
  node: Node;
  observe: () => Promise<Observation>;
  updateFrequencyMs: number;
  reportFrequencyMs: number;
  clock: Clock;
  log: Logger;
  /** after each successful write, with the node as written */
  onReport?: (node: Node) => void;
}

export interface StatusReporter {
  /** resolves once the node is registered */
  registered: Promise<void>;
  uid(): string | undefined;
  /** computes and (if due) writes the status now */
  syncNow(): Promise<void>;
  stop(): void;
}

const nodesPath = '/api/v1/nodes';

/** the status without heartbeat times, to compare two reports */
function withoutHeartbeats(s: NodeStatus | undefined): string {
  const { conditions, ...rest } = s ?? {};
  return JSON.stringify([rest, (conditions ?? []).map(c => ({ ...c, lastHeartbeatTime: undefined }))]);
}

export function startStatusReporter(opts: StatusReporterOptions): StatusReporter {
  const name = opts.node.metadata.name;
  const path = `${nodesPath}/${encodeURIComponent(name)}`;
  let uid: string | undefined;
  let lastReport = -Infinity;
  let stopped = false;
  let timer: { cancel(): void } | undefined;
  let resolveRegistered!: () => void;
  const registered = new Promise<void>(r => { resolveRegistered = r; });

  /** creates the node, or takes over one that exists: our labels win, the rest is kept */
  async function register(): Promise<void> {
    try {
      const created = await opts.client.create<Node>(nodesPath, opts.node);
      uid = created.metadata.uid;
      opts.log.info('node registered', { node: name });
      return;
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    for (let attempt = 0; ; attempt++) {
      const existing = await opts.client.get<Node>(path);
      const labels = { ...existing.metadata.labels, ...opts.node.metadata.labels };
      const annotations = { ...existing.metadata.annotations, ...opts.node.metadata.annotations };
      try {
        const updated = await opts.client.update<Node>(path, { ...existing, metadata: { ...existing.metadata, labels, annotations } });
        uid = updated.metadata.uid;
        opts.log.info('existing node taken over', { node: name });
        return;
      } catch (err) {
        if (!isConflict(err) || attempt >= 4) throw err;
      }
    }
  }

  async function registerUntilDone(): Promise<void> {
    const retry = new Backoff({ initialMs: 100, maxMs: 7000 });
    while (!stopped) {
      try { await register(); resolveRegistered(); return; } catch (err) {
        const delay = retry.next();
        opts.log.warn('unable to register node with the API server; retrying', { node: name, retryInMs: delay, err: String((err as Error).message ?? err) });
        await new Promise<void>(r => opts.clock.after(delay, r));
      }
    }
  }

  async function sync(): Promise<void> {
    const seen = await opts.observe();
    for (let attempt = 0; ; attempt++) {
      let current: Node;
      try {
        // the first read may come from the watch cache; a conflict means it was stale
        current = await opts.client.get<Node>(path, attempt === 0 ? { resourceVersion: '0' } : undefined);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        opts.log.warn('node object missing; registering again', { node: name });
        await register();
        continue;
      }
      uid = current.metadata.uid;
      const now = opts.clock.now();
      const conditions = stampConditions(current.status?.conditions, seen.conditions, rfc3339(now));
      const status: NodeStatus = { ...current.status, ...seen.status, conditions };
      const changed = withoutHeartbeats(current.status) !== withoutHeartbeats(status) || conditionsChanged(current.status?.conditions, conditions);
      if (!changed && now - lastReport < opts.reportFrequencyMs) return;
      try {
        const written = await opts.client.update<Node>(`${path}/status`, { ...current, status });
        lastReport = now;
        opts.onReport?.(written);
        return;
      } catch (err) {
        if (!isConflict(err) || attempt >= 4) throw err;
      }
    }
  }

  async function loop(): Promise<void> {
    if (stopped) return;
    try { await sync(); } catch (err) {
      opts.log.warn('error updating node status; will retry', { node: name, err: String((err as Error).message ?? err) });
    }
    if (!stopped) timer = opts.clock.after(opts.updateFrequencyMs, () => void loop());
  }

  void registerUntilDone().then(() => loop());
  return {
    registered,
    uid: () => uid,
    syncNow: sync,
    stop() { stopped = true; timer?.cancel(); },
  };
}
