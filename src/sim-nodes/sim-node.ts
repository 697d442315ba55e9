// One simulated node: the Node it registers (a machine of its own, with KWOK's default size), the
// Lease it renews as a node agent does, and the status it reports when it starts and every five
// minutes after (the kubelet's report frequency while its lease is the heartbeat). It runs no
// server: logs and exec need a real agent.

import type { Clock } from '../api/clock.ts';
import type { Logger } from '../api/log.ts';
import { rfc3339 } from '../api/time.ts';
import { isAlreadyExists, isNotFound } from '../client/api-error.ts';
import type { Client } from '../client/rest.ts';
import type { MachineFacts } from '../agent/machine/facts.ts';
import { startLeaseHeartbeat } from '../agent/node-status/lease.ts';
import { observedConditions, stampConditions, type NodeCondition } from '../agent/node-status/conditions.ts';
import { nodeStatus, registrationNode, type Node, type Taint } from '../agent/node-status/node-object.ts';
import { nodeResources } from '../agent/node-status/resources.ts';
import { simRuntimeVersion } from './sim-pod.ts';

export const simNodeLabel = 'orch.io/simulated-node';

export interface SimNodeOptions {
  client: Client;
  name: string;
  /** the node's address, and the pod subnet its pods' IPs come from */
  ip: string;
  podCIDR: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  clock: Clock;
  log: Logger;
  /** how often the status is reported when nothing changes; the kubelet's 5 minutes */
  statusReportMs?: number;
  leaseDurationSeconds?: number;
}

export interface SimNode {
  readonly name: string;
  stop(): void;
}

const gib = 1024 ** 3;

function facts(name: string): MachineFacts {
  return {
    hostname: name, kernelVersion: '6.1.0-orch-sim', osImage: 'orch simulated node', operatingSystem: 'linux', architecture: 'amd64',
    machineID: '', systemUUID: '', bootID: '', cpus: 32, memoryBytes: 256 * gib, hugepages: {}, swapBytes: 0, pidMax: 4194304,
  };
}

function observedStatus(o: SimNodeOptions, previous: NodeCondition[] | undefined): Node['status'] {
  const f = facts(o.name);
  const status = nodeStatus({
    facts: f, resources: nodeResources(f, 100 * gib, 110, {}), addresses: [{ type: 'InternalIP', address: o.ip }, { type: 'Hostname', address: o.name }],
    port: 0, runtimeVersion: simRuntimeVersion, declaredFeatures: [],
  });
  return { ...status, conditions: stampConditions(previous, observedConditions(new Set(), { notReadyReasons: [], networkReady: true }), rfc3339(o.clock.now())) };
}

export async function startSimNode(o: SimNodeOptions): Promise<SimNode> {
  const path = `/api/v1/nodes/${encodeURIComponent(o.name)}`;
  const node = registrationNode({ name: o.name, facts: facts(o.name), labels: { [simNodeLabel]: 'true', 'node.kubernetes.io/instance-type': 'orch-sim', ...o.labels }, taints: o.taints ?? [], podCIDR: o.podCIDR });
  let uid: string | undefined;
  try {
    uid = (await o.client.create<Node>('/api/v1/nodes', node)).metadata.uid;
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    // a node of that name from before: it becomes this one, with this one's labels
    uid = (await o.client.patch<Node>(path, { metadata: { labels: node.metadata.labels } })).metadata.uid;
  }
  let stopped = false;
  let timer: { cancel(): void } | undefined;
  const report = async (): Promise<void> => {
    try {
      const current = await o.client.get<Node>(path);
      await o.client.patch(`${path}/status`, { status: observedStatus(o, current.status?.conditions) }, 'application/strategic-merge-patch+json');
    } catch (err) {
      // a deleted node is gone for good: it is not registered again behind the user's back
      if (isNotFound(err)) { stop(); return; }
      o.log.warn('node status not reported', { node: o.name, err: String((err as Error).message ?? err) });
    }
    if (!stopped) timer = o.clock.after((o.statusReportMs ?? 300_000) * (1 + 0.04 * Math.random()), () => void report());
  };
  await report();
  const lease = startLeaseHeartbeat({
    client: o.client, nodeName: o.name, leaseDurationSeconds: o.leaseDurationSeconds ?? 40, clock: o.clock, log: o.log,
    nodeUid: () => uid, jitter: { fraction: 0.04 },
  });
  function stop(): void {
    stopped = true;
    timer?.cancel();
    lease.stop();
  }
  return { name: o.name, stop };
}
