// The node lifecycle controller: watches Nodes and their Leases, turns a node's conditions
// Unknown when its agent has not been heard from for the grace period (lease renewals and
// status heartbeats both count, timed by this controller's own clock so node clocks do not
// matter), and keeps the condition taints (unreachable, not-ready, pressure, unschedulable)
// in step with the conditions. Taint-based eviction is the taint eviction controller's job.

import type { Logger } from '../../api/log.ts';
import { isConflict, isNotFound } from '../../client/api-error.ts';
import { createInformer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { reconcileTaints, unknownConditions, wantedTaints, type Condition, type Taint } from './health.ts';
import { rfc3339 } from '../../api/time.ts';

export interface NodeLifecycleOptions {
  /** --node-monitor-grace-period; default 50 s */
  gracePeriodMs?: number;
  /** --node-monitor-period; default 5 s */
  monitorPeriodMs?: number;
  now?: () => number;
}

interface Node {
  metadata: { name: string; resourceVersion?: string };
  spec?: { taints?: Taint[]; unschedulable?: boolean };
  status?: { conditions?: Condition[] };
}
interface Lease { metadata: { name: string; namespace?: string }; spec?: { renewTime?: string } }

interface Observed { probeAt: number; leaseRenew?: string; heartbeat?: string; readyFalseSince?: number }


export function startNodeLifecycleController(client: Client, log: Logger, opts: NodeLifecycleOptions = {}): { stop(): void; tick(): Promise<void> } {
  const grace = opts.gracePeriodMs ?? 50_000;
  const period = opts.monitorPeriodMs ?? 5_000;
  const now = opts.now ?? Date.now;
  const nodes = createInformer<Node>(client, '/api/v1/nodes', { log });
  const leases = createInformer<Lease>(client, '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', { log });
  const seen = new Map<string, Observed>();
  const path = (name: string) => `/api/v1/nodes/${encodeURIComponent(name)}`;

  /** reads the node afresh, lets fn change it, writes it back; again on a conflict */
  async function modify(name: string, sub: '' | '/status', fn: (n: Node) => Node | undefined): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      let node: Node;
      try { node = await client.get<Node>(path(name)); } catch (err) { if (isNotFound(err)) return; throw err; }
      const next = fn(node);
      if (!next) return;
      try { await client.update(path(name) + sub, next); return; } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt >= 4) throw err;
      }
    }
  }

  async function monitor(node: Node): Promise<void> {
    const name = node.metadata.name;
    const t = now();
    const o = seen.get(name) ?? { probeAt: t };
    seen.set(name, o);
    const renew = leases.get(`kube-node-lease/${name}`)?.spec?.renewTime;
    const ready = node.status?.conditions?.find(c => c.type === 'Ready');
    if (renew !== o.leaseRenew) { o.leaseRenew = renew; o.probeAt = t; }
    if (ready?.lastHeartbeatTime !== o.heartbeat) { o.heartbeat = ready?.lastHeartbeatTime; o.probeAt = t; }

    let conditions = node.status?.conditions;
    if (t - o.probeAt > grace && ready?.status !== 'Unknown') {
      const stamp = rfc3339(t);
      log.info('node stopped posting status; conditions set to Unknown', { node: name, quietSeconds: Math.round((t - o.probeAt) / 1000) });
      await modify(name, '/status', n => ({ ...n, status: { ...n.status, conditions: unknownConditions(n.status?.conditions, stamp) } }));
      conditions = unknownConditions(conditions, stamp);
    }

    const readyNow = conditions?.find(c => c.type === 'Ready')?.status;
    if (readyNow === 'False') o.readyFalseSince ??= t; else o.readyFalseSince = undefined;
    const wanted = wantedTaints({ conditions, unschedulable: !!node.spec?.unschedulable, notReadyPastGrace: o.readyFalseSince !== undefined && t - o.readyFalseSince > grace });
    if (!reconcileTaints(node.spec?.taints, wanted, rfc3339(t))) return;
    await modify(name, '', n => {
      const taints = reconcileTaints(n.spec?.taints, wanted, rfc3339(t));
      if (!taints) return undefined;
      log.info('node taints updated', { node: name, taints: taints.map(x => `${x.key}:${x.effect}`) });
      const spec = { ...n.spec };
      if (taints.length) spec.taints = taints; else delete spec.taints;
      return { ...n, spec };
    });
  }

  async function tick(): Promise<void> {
    const names = new Set<string>();
    for (const node of nodes.list()) {
      names.add(node.metadata.name);
      try { await monitor(node); } catch (err) { log.warn('node health update failed; will retry', { node: node.metadata.name, err: String((err as Error).message ?? err) }); }
    }
    for (const name of [...seen.keys()]) if (!names.has(name)) seen.delete(name);
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const loop = async () => {
    if (stopped) return;
    if (nodes.hasSynced() && leases.hasSynced()) await tick();
    if (!stopped) { timer = setTimeout(() => void loop(), period); timer.unref(); }
  };
  nodes.start();
  leases.start();
  void loop();
  return {
    tick,
    stop() { stopped = true; if (timer) clearTimeout(timer); nodes.stop(); leases.stop(); },
  };
}
