// Restricted volume types (restricted, all versions, replacing the baseline hostPath check):
// only configMap, csi, downwardAPI, emptyDir, ephemeral, image, persistentVolumeClaim,
// projected and secret. Any other source is named by its field, in the API's order.

import type { CoreV1Volume } from '../../../../../schema/generated/types.ts';
import { joinQuote, named, pluralize, sortedSet } from '../words.ts';
import type { Check, CheckFn } from './types.ts';

const allowed = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'] as const;
const restricted = ['hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos'] as const;

const has = (v: CoreV1Volume, field: string) => (v as unknown as Record<string, unknown>)[field] != null;

const restrictedVolumes: CheckFn = (_m, s) => {
  const names: string[] = [];
  const types: string[] = [];
  for (const v of s.volumes ?? []) {
    if (allowed.some(f => has(v, f))) continue;
    names.push(v.name);
    types.push(restricted.find(f => has(v, f)) ?? 'unknown');
  }
  if (!names.length) return undefined;
  const list = sortedSet(types);
  return { reason: 'restricted volume types', detail: `${named('volume', 'volumes', names)} ${pluralize('uses', 'use', names.length)} ${pluralize('restricted volume type', 'restricted volume types', list.length)} ${joinQuote(list)}` };
};

export const volumeChecks: Check[] = [
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ minimumVersion: 0, run: restrictedVolumes, overrides: ['hostPathVolumes'] }] },
];
