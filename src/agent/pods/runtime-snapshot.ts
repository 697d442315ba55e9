// The runtime's pods as the agent sees them: one list of sandboxes and one of containers,
// grouped by pod UID. Start times, exit codes and finish times are not in ListContainers, so a
// container is asked about with ContainerStatus once when it is seen running and once when seen
// exited; neither answer changes while the container stays in that state.

import { terminationMessage } from './termination-message.ts';
import { podStopSignal } from './stop-signal.ts';
import type { CriClient } from '../cri/client.ts';
import { CONTAINER_HASH, CONTAINER_NAME, CONTAINER_RESTART_COUNT, MANAGED_BY, MANAGED_BY_VALUE, POD_NAME, POD_NAMESPACE, POD_UID } from './cri-labels.ts';
import type { RuntimeContainer, RuntimePod, RuntimeSandbox } from './types.ts';

import type { CriContainer, CriContainerStatus } from '../cri/generated/cri-types.ts';

export interface RuntimeSnapshot {
  pods: Map<string, RuntimePod>;
  takenAt: number;
}

export interface SnapshotReader {
  read(): Promise<RuntimeSnapshot>;
  /** one pod's sandboxes and containers only (a cheaper read for one worker's sync) */
  readPod(uid: string): Promise<RuntimePod | undefined>;
  /** the latest snapshot read, if any */
  latest(): RuntimeSnapshot | undefined;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));

export function snapshotReader(cri: CriClient, now: () => number = Date.now): SnapshotReader {
  const seen = new Map<string, CriContainerStatus>();
  // an exited container's termination message, read once from its file (or log)
  const messages = new Map<string, string | undefined>();
  const sandboxIps = new Map<string, { ip?: string; additional: string[] }>();
  let last: RuntimeSnapshot | undefined;

  async function details(c: CriContainer): Promise<CriContainerStatus | undefined> {
    if (c.state !== 'CONTAINER_EXITED' && c.state !== 'CONTAINER_RUNNING') return undefined;
    const key = `${c.id}/${c.state}`;
    const known = seen.get(key);
    if (known) return known;
    try {
      const res = await cri.containerStatus({ containerId: c.id });
      if (res.status) seen.set(key, res.status);
      return res.status;
    } catch {
      return undefined; // removed between the list and the status: the next relist will not show it
    }
  }

  return {
    latest: () => last,
    async read() {
      last = { pods: await group(), takenAt: now() };
      return last;
    },
    async readPod(uid) {
      return (await group(uid)).get(uid);
    },
  };

  async function group(uid?: string): Promise<Map<string, RuntimePod>> {
    const filter = uid ? { filter: { labelSelector: { [POD_UID]: uid } } } : {};
    const [sbRes, ctRes] = await Promise.all([cri.listPodSandbox(filter), cri.listContainers(filter)]);
    const pods = new Map<string, RuntimePod>();
    const podFor = (labels: Record<string, string>): RuntimePod | undefined => {
      if (labels[MANAGED_BY] !== MANAGED_BY_VALUE || !labels[POD_UID]) return undefined;
      let p = pods.get(labels[POD_UID]!);
      if (!p) pods.set(labels[POD_UID]!, p = { uid: labels[POD_UID]!, name: labels[POD_NAME] ?? '', namespace: labels[POD_NAMESPACE] ?? '', sandboxes: [], containers: [] });
      return p;
    };
    const ips = new Map<string, RuntimeSandbox>();
    for (const s of sbRes.items ?? []) {
      const p = podFor(s.labels ?? {});
      if (!p) continue;
      const sb: RuntimeSandbox = { id: s.id, attempt: num(s.metadata?.attempt), state: s.state, createdAt: num(s.createdAt) };
      p.sandboxes.push(sb);
      if (s.state === 'SANDBOX_READY') ips.set(s.id, sb);
    }
    // sandbox IPs are only in PodSandboxStatus; they do not change while a sandbox is ready, so
    // each ready sandbox is asked once
    await Promise.all([...ips.values()].map(async sb => {
      let net = sandboxIps.get(sb.id);
      if (!net) {
        try {
          const st = await cri.podSandboxStatus({ podSandboxId: sb.id });
          net = { ip: st.status?.network?.ip || undefined, additional: (st.status?.network?.additionalIps ?? []).map(x => x.ip).filter(Boolean) };
          sandboxIps.set(sb.id, net);
        } catch { return; /* gone since the list */ }
      }
      sb.ip = net.ip;
      sb.additionalIps = net.additional;
    }));
    if (!uid) for (const id of sandboxIps.keys()) if (!ips.has(id)) sandboxIps.delete(id);
    const live = new Set<string>();
    await Promise.all((ctRes.containers ?? []).map(async c => {
      const labels = c.labels ?? {};
      const p = podFor(labels);
      if (!p) return;
      live.add(c.id);
      const d = await details(c);
      const rc: RuntimeContainer = {
        id: c.id,
        sandboxId: c.podSandboxId,
        name: labels[CONTAINER_NAME] ?? c.metadata?.name,
        attempt: num(c.metadata?.attempt),
        state: c.state,
        image: c.image?.image ?? '',
        imageRef: c.imageRef ?? '',
        createdAt: num(c.createdAt),
        hash: c.annotations?.[CONTAINER_HASH],
        restartCount: num(c.annotations?.[CONTAINER_RESTART_COUNT] ?? c.metadata?.attempt),
      };
      if (d) {
        rc.startedAt = num(d.startedAt) || undefined;
        rc.finishedAt = num(d.finishedAt) || undefined;
        if (c.state === 'CONTAINER_EXITED') rc.exitCode = num(d.exitCode);
        rc.reason = d.reason || undefined;
        rc.message = d.message || undefined;
        if (c.state === 'CONTAINER_EXITED' && !rc.message) {
          if (!messages.has(c.id)) messages.set(c.id, await terminationMessage(c.annotations, rc.exitCode, d.logPath));
          rc.message = messages.get(c.id);
        }
        rc.imageRef = d.imageRef || rc.imageRef;
        rc.stopSignal = podStopSignal(d.stopSignal);
      }
      p.containers.push(rc);
    }));
    if (!uid) for (const key of seen.keys()) if (!live.has(key.slice(0, key.indexOf('/')))) seen.delete(key);
    if (!uid) for (const id of messages.keys()) if (!live.has(id)) messages.delete(id);
    for (const p of pods.values()) {
      p.sandboxes.sort((a, b) => b.createdAt - a.createdAt);
      p.containers.sort((a, b) => b.createdAt - a.createdAt);
    }
    return pods;
  }
}
