// The VolumeBinding plugin's state and PreBind step: informers over claims, volumes and classes;
// before a pod is bound to its node, the free volumes chosen for its waiting claims are pre-bound
// to them (claimRef, as the binder would) and the claims to be provisioned are marked with the
// node (volume.kubernetes.io/selected-node); then the pod waits until the binder has bound every
// one of its claims, so that the node agent finds each claim's volume when it mounts.

import type { Logger } from '../../api/log.ts';
import { createInformer, type Informer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { annBoundByController, annSelectedNode, volumeBoundToClaim, type Claim, type StorageClass, type Volume } from '../volumes/claims.ts';
import { claimFullyBound, type VolumePlan, type VolumeWorld } from './volume-binding.ts';

export interface VolumeState {
  claims: Informer<Claim>;
  volumes: Informer<Volume>;
  classes: Informer<StorageClass>;
  /** volumes promised to claims by binds in flight */
  assumed: Set<string>;
  /** per claim, the last selected-node any watch event carried */
  selectedSeen: Map<string, string>;
  world: VolumeWorld;
  start(): void;
  stop(): void;
  synced(): boolean;
}

export function volumeState(client: Client, log: Logger): VolumeState {
  const claims = createInformer<Claim>(client, '/api/v1/persistentvolumeclaims', { log });
  const volumes = createInformer<Volume>(client, '/api/v1/persistentvolumes', { log });
  const classes = createInformer<StorageClass>(client, '/apis/storage.k8s.io/v1/storageclasses', { log });
  const assumed = new Set<string>();
  const selectedSeen = new Map<string, string>();
  const note = (c: Claim) => { const n = c.metadata.annotations?.[annSelectedNode]; if (n) selectedSeen.set(`${c.metadata.namespace}/${c.metadata.name}`, n); };
  claims.on('add', note).on('update', (_a, c) => note(c)).on('delete', c => selectedSeen.delete(`${c.metadata.namespace}/${c.metadata.name}`));
  const all = [claims, volumes, classes];
  return {
    claims, volumes, classes, assumed, selectedSeen,
    world: {
      claim: (ns, name) => claims.get(`${ns}/${name}`),
      volume: name => volumes.get(name),
      volumes: () => volumes.list(),
      storageClass: name => classes.get(name),
      assumed,
    },
    start() { for (const i of all) i.start(); },
    stop() { for (const i of all) i.stop(); },
    synced: () => all.every(i => i.hasSynced()),
  };
}

export const hasVolumeWork = (plan: VolumePlan | undefined): plan is VolumePlan => !!plan && (plan.bind.length > 0 || plan.provision.length > 0);

const enc = encodeURIComponent;

export async function bindVolumes(client: Client, s: VolumeState, plan: VolumePlan, nodeName: string, o: { timeoutMs: number; pollMs?: number }): Promise<void> {
  for (const { claim, volume } of plan.bind) {
    const v = s.volumes.get(volume.metadata.name!) ?? volume;
    if (volumeBoundToClaim(v, claim) && v.spec?.claimRef?.uid === claim.metadata.uid) continue;
    const annotations = { ...v.metadata.annotations };
    if (!volumeBoundToClaim(v, claim)) annotations[annBoundByController] = 'yes';
    const claimRef = { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion };
    await client.update(`/api/v1/persistentvolumes/${enc(v.metadata.name!)}`, { ...v, metadata: { ...v.metadata, annotations }, spec: { ...v.spec, claimRef } });
  }
  for (const claim of plan.provision) {
    const c = s.claims.get(`${claim.metadata.namespace}/${claim.metadata.name}`) ?? claim;
    if (c.metadata.annotations?.[annSelectedNode] === nodeName) continue;
    s.selectedSeen.delete(`${c.metadata.namespace}/${c.metadata.name}`);
    await client.update(`/api/v1/namespaces/${enc(c.metadata.namespace!)}/persistentvolumeclaims/${enc(c.metadata.name!)}`, { ...c, metadata: { ...c.metadata, annotations: { ...c.metadata.annotations, [annSelectedNode]: nodeName } } });
  }
  const key = (c: Claim) => `${c.metadata.namespace}/${c.metadata.name}`;
  const keys = [...plan.bind.map(b => b.claim), ...plan.provision].map(key);
  const provisioned = new Set(plan.provision.map(key));
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    const pending = keys.filter(k => { const c = s.claims.get(k); return !c || !claimFullyBound(c) || !s.volumes.get(c.spec!.volumeName!); });
    if (pending.length === 0) return;
    const gone = pending.find(k => !s.claims.get(k));
    if (gone) throw new Error(`binding volumes: persistentvolumeclaim "${gone.split('/')[1]}" not found`);
    // the provisioner gave up on this node and took the node off the claim (once a watch event
    // carried it there: until then the claim held may just be older than the write above)
    const failed = pending.find(k => provisioned.has(k) && s.selectedSeen.get(k) === nodeName && s.claims.get(k)!.metadata.annotations?.[annSelectedNode] !== nodeName);
    if (failed) throw new Error(`binding volumes: provisioning failed for PVC "${failed.split('/')[1]}"`);
    if (Date.now() > deadline) throw new Error('binding volumes: context deadline exceeded');
    await new Promise(r => setTimeout(r, o.pollMs ?? 100));
  }
}
