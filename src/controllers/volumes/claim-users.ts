// Pods as the volume controllers see them: who they are, their node, phase and the claims their
// volumes name (a generic ephemeral volume's claim is `<pod>-<volume>`). Shared helpers for the
// binder (pods waiting to be scheduled), the scheduler and pvc-protection (claims in use).

import type { Logger } from '../../api/log.ts';
import type { Informer } from '../../client/informer.ts';
import { podInformer } from '../pod-view.ts';
import type { Client } from '../../client/rest.ts';
import type { CoreV1Pod } from '../../schema/generated/types.ts';

export interface ClaimUser {
  metadata: { name: string; namespace: string; uid?: string; resourceVersion?: string; deletionTimestamp?: string };
  nodeName?: string;
  phase?: string;
  claims: string[];
}

export function claimsOfPod(pod: CoreV1Pod): string[] {
  const out: string[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim?.claimName) out.push(v.persistentVolumeClaim.claimName);
    else if (v.ephemeral) out.push(`${pod.metadata?.name}-${v.name}`);
  }
  return out;
}

export function claimUser(pod: CoreV1Pod): ClaimUser {
  const m = pod.metadata ?? {};
  return {
    metadata: { name: m.name!, namespace: m.namespace!, uid: m.uid, resourceVersion: m.resourceVersion, deletionTimestamp: m.deletionTimestamp },
    nodeName: pod.spec?.nodeName,
    phase: pod.status?.phase,
    claims: claimsOfPod(pod),
  };
}

/**
 * Pods as the claims they use: from the pod informer the process shares (podView keeps the
 * claims a placed pod's volumes name), or from one of its own.
 */
export function claimUsers(client: Client, log: Logger, shared?: Informer<CoreV1Pod>): { pods: Informer<CoreV1Pod>; index: ClaimIndex; owned: boolean } {
  const pods = shared ?? podInformer(client, log);
  const index = new ClaimIndex();
  pods
    .on('add', p => index.add(claimUser(p)))
    .on('update', (a, p) => { index.remove(claimUser(a)); index.add(claimUser(p)); })
    .on('delete', p => index.remove(claimUser(p)));
  return { pods, index, owned: !shared };
}

/** a pod that has finished no longer needs its claims */
export const holdsClaims = (p: ClaimUser) => p.phase !== 'Succeeded' && p.phase !== 'Failed';

/** per namespace/claim, the pods naming it */
export class ClaimIndex {
  private readonly byClaim = new Map<string, Map<string, ClaimUser>>();
  add(p: ClaimUser): void {
    for (const c of p.claims) {
      const key = `${p.metadata.namespace}/${c}`;
      let m = this.byClaim.get(key);
      if (!m) this.byClaim.set(key, m = new Map());
      m.set(p.metadata.name, p);
    }
  }
  remove(p: ClaimUser): void {
    for (const c of p.claims) {
      const key = `${p.metadata.namespace}/${c}`;
      const m = this.byClaim.get(key);
      m?.delete(p.metadata.name);
      if (m?.size === 0) this.byClaim.delete(key);
    }
  }
  users(claimKey: string): ClaimUser[] {
    return [...(this.byClaim.get(claimKey)?.values() ?? [])];
  }
}
