// Many simulated nodes in one process, as KWOK runs them, but with the node agent's own logic
// for their pods: one watch of bound pods for the whole pool (not one per node), one status
// writer, one prober and one image store.

import { randomBytes } from 'node:crypto';
import { realClock, type Clock } from '../api/clock.ts';
import type { Logger } from '../api/log.ts';
import { createInformer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import { restartBackoff } from '../agent/pods/backoff.ts';
import { startProber } from '../agent/pods/prober.ts';
import { startStatusManager } from '../agent/pods/status-manager.ts';
import type { Pod } from '../agent/pods/types.ts';
import type { Taint } from '../agent/node-status/node-object.ts';
import { ImageStore } from '../runtime-sim/images.ts';
import { SimPod, type SimPodContext } from './sim-pod.ts';
import { startSimNode, type SimNode } from './sim-node.ts';
import { simProbe } from './sim-probe.ts';
import { maxSimNodes, simNodeAddresses } from './node-addresses.ts';

export interface SimNodePoolOptions {
  client: Client;
  count: number;
  /** nodes are named PREFIX-0 … PREFIX-(count-1) */
  prefix?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  clock?: Clock;
  log: Logger;
  /** nodes registered at once while the pool starts */
  parallel?: number;
  /** the nodes' lease duration (40 s, as the kubelet's); renewed every quarter of it */
  leaseDurationSeconds?: number;
}

export interface SimNodePool {
  readonly names: string[];
  /** the node goes silent, as a machine switched off: no lease, no status, its containers gone */
  stopNode(name: string): void;
  stop(): void;
}

interface Member { node: SimNode; ip: string; subnet: string; used: Set<number>; pods: Map<string, SimPod> }

export async function startSimNodePool(o: SimNodePoolOptions): Promise<SimNodePool> {
  if (!Number.isInteger(o.count) || o.count < 0 || o.count > maxSimNodes) throw new Error(`the number of simulated nodes must be 0 to ${maxSimNodes}, not ${o.count}`);
  const clock = o.clock ?? realClock;
  const prefix = o.prefix ?? 'sim-node';
  const members = new Map<string, Member>();
  const pods = new Map<string, SimPod>();
  let prober: ReturnType<typeof startProber> | undefined;
  const ctx: SimPodContext = {
    client: o.client, clock, log: o.log,
    images: new ImageStore({ clock, pullDelayMs: 0, unpullable: [], preloaded: [] }),
    backoff: restartBackoff(() => clock.now()),
    statuses: startStatusManager(o.client, o.log),
    get prober() { return prober!; },
    newId: () => randomBytes(32).toString('hex'),
  };
  prober = startProber({ clock, wake: uid => pods.get(uid)?.wake(), event: () => {}, check: (probe, id, uid) => simProbe(probe, pods.get(uid)?.container(id)) });

  function place(pod: Pod): void {
    const uid = pod.metadata.uid;
    const have = pods.get(uid);
    if (have) { have.update(pod); return; }
    const m = members.get(pod.spec.nodeName ?? '');
    if (!m) return;
    const gone = () => { m.pods.delete(uid); pods.delete(uid); };
    let p: SimPod;
    // a host-network pod has the node's address; others one of the node's subnet, where .1 is
    // the gateway and a node's at most 110 pods fit well within .2–.254
    if (pod.spec.hostNetwork) p = new SimPod(pod, ctx, m.ip, m.ip, gone);
    else {
      let host = 2;
      while (m.used.has(host) && host < 255) host++;
      if (host === 255) { o.log.warn('no pod address left on simulated node', { node: pod.spec.nodeName }); return; }
      m.used.add(host);
      p = new SimPod(pod, ctx, m.ip, `${m.subnet}.${host}`, () => { m.used.delete(host); gone(); });
    }
    pods.set(uid, p);
    m.pods.set(uid, p);
    p.wake();
  }

  const informer = createInformer<Pod>(o.client, '/api/v1/pods', { fieldSelector: 'spec.nodeName!=', log: o.log });
  informer.on('add', place).on('update', (_old, pod) => place(pod)).on('delete', pod => pods.get(pod.metadata.uid)?.halt());

  const names = Array.from({ length: o.count }, (_, i) => `${prefix}-${i}`);
  const parallel = o.parallel ?? 16;
  for (let at = 0; at < names.length; at += parallel) {
    await Promise.all(names.slice(at, at + parallel).map(async (name, k) => {
      const { ip, subnet } = simNodeAddresses(at + k);
      const node = await startSimNode({ client: o.client, name, ip, podCIDR: `${subnet}.0/24`, labels: o.labels, taints: o.taints, clock, log: o.log, leaseDurationSeconds: o.leaseDurationSeconds });
      members.set(name, { node, ip, subnet, used: new Set(), pods: new Map() });
    }));
  }
  // pods already bound to these nodes (a pool started again) are run once the nodes are there
  informer.start();
  await informer.synced();

  function stopNode(name: string): void {
    const m = members.get(name);
    if (!m) return;
    members.delete(name);
    m.node.stop();
    for (const p of [...m.pods.values()]) p.halt();
  }

  return {
    names,
    stopNode,
    stop() {
      informer.stop();
      for (const name of [...members.keys()]) stopNode(name);
      prober?.stop();
    },
  };
}
