// The volume the built-in local-path provisioner makes for a claim, as rancher's
// local-path-provisioner (the one k3s ships) makes it: named pvc-<claim uid>, a hostPath
// directory `<dir>/<volume>_<namespace>_<claim>` created by the node agent when first mounted
// (DirectoryOrCreate), pinned to the node the scheduler chose by node affinity, of the claim's
// size, modes and class, with the class's reclaim policy. Only single-node access modes can be
// served from one node's disk.

import { localPathProvisionerName } from '../../api/default-storage-class.ts';
import type { CoreV1Node, CoreV1PersistentVolume } from '../../schema/generated/types.ts';
import { annProvisionedBy, annSelectedNode, claimClass, type Claim, type StorageClass } from './claims.ts';

export const localPathProvisioner = localPathProvisionerName;
export const defaultLocalPathDir = '/var/lib/orch/storage';

export type Provisioned = { volume: CoreV1PersistentVolume } | { error: string };

export const volumeNameFor = (c: Claim) => `pvc-${c.metadata.uid}`;

export function localPathVolume(c: Claim, sc: StorageClass, node: CoreV1Node | undefined, dir: string): Provisioned {
  const fail = (why: string): Provisioned => ({ error: `failed to provision volume with StorageClass "${sc.metadata?.name}": ${why}` });
  for (const mode of c.spec?.accessModes ?? []) {
    if (mode !== 'ReadWriteOnce' && mode !== 'ReadWriteOncePod') return fail('Only support ReadWriteOnce, ReadWriteOncePod access modes');
  }
  if (c.spec?.volumeMode === 'Block') return fail('Only support volumeMode Filesystem');
  if (!dir.startsWith('/')) return fail(`configuration error, the volume directory ${JSON.stringify(dir)} is not an absolute path`);
  const nodeName = c.metadata.annotations?.[annSelectedNode];
  if (!nodeName || !node) return fail('configuration error, no node was specified');
  const name = volumeNameFor(c);
  const hostname = node.metadata?.labels?.['kubernetes.io/hostname'] ?? nodeName;
  const storage = c.spec?.resources?.requests?.storage;
  return {
    volume: {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      // the node agent removes the directory, then this finalizer, when the volume is deleted
      metadata: { name, annotations: { [annProvisionedBy]: localPathProvisioner, 'local.path.provisioner/selected-node': nodeName }, finalizers: ['external-provisioner.volume.kubernetes.io/finalizer'] },
      spec: {
        capacity: storage ? { storage } : undefined,
        accessModes: c.spec?.accessModes,
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        storageClassName: claimClass(c),
        volumeMode: 'Filesystem',
        hostPath: { path: `${dir.replace(/\/+$/, '')}/${name}_${c.metadata.namespace}_${c.metadata.name}`, type: 'DirectoryOrCreate' },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [hostname] }] }] } },
        claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: c.metadata.namespace, name: c.metadata.name, uid: c.metadata.uid, resourceVersion: c.metadata.resourceVersion },
        mountOptions: sc.mountOptions,
      },
    },
  };
}
