// Dead container garbage collection, as the kubelet's runs every minute: of a pod's exited
// instances of one container the newest is kept (what `kubectl logs --previous` reads, the
// kubelet's maxPerPodContainer of 1), older ones are removed, and so are a pod's sandboxes that
// no longer run except its newest. Pods no source knows are the pod manager's to remove whole.

import type { Logger } from '../../api/log.ts';
import type { CriClient } from '../cri/client.ts';
import type { RuntimePod } from '../pods/types.ts';

export interface Garbage { containers: string[]; sandboxes: string[] }

/** what to remove from the runtime's pods that are still known (pure) */
export function deadContainerGarbage(pods: Iterable<RuntimePod>, known: (uid: string) => boolean, maxPerPodContainer = 1): Garbage {
  const out: Garbage = { containers: [], sandboxes: [] };
  for (const p of pods) {
    if (!known(p.uid)) continue;
    const byName = new Map<string, typeof p.containers>();
    for (const c of p.containers) if (c.state === 'CONTAINER_EXITED') byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
    for (const dead of byName.values()) {
      dead.sort((a, b) => b.createdAt - a.createdAt);
      for (const c of dead.slice(maxPerPodContainer)) out.containers.push(c.id);
    }
    const newest = [...p.sandboxes].sort((a, b) => b.createdAt - a.createdAt)[0];
    for (const s of p.sandboxes) {
      // a sandbox some container still lives in stays
      if (s === newest || s.state === 'SANDBOX_READY' || p.containers.some(c => c.sandboxId === s.id && !out.containers.includes(c.id))) continue;
      out.sandboxes.push(s.id);
    }
  }
  return out;
}

export async function removeGarbage(cri: CriClient, g: Garbage, log: Logger): Promise<void> {
  for (const id of g.containers) await cri.removeContainer({ containerId: id }).catch(err => log.warn('dead container not removed', { id, err: String(err) }));
  for (const id of g.sandboxes) await cri.removePodSandbox({ podSandboxId: id }).catch(err => log.warn('dead sandbox not removed', { id, err: String(err) }));
}
