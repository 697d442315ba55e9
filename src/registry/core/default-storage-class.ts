// The DefaultStorageClass admission plugin: a new claim that names no class (storageClassName
// absent; an empty string means "no class" and is kept) gets the cluster's default class.

import type { StrategyContext } from '../strategy.ts';
import type { KubeObject } from '../../api/object.ts';
import { defaultClassOf } from '../../api/default-storage-class.ts';
import type { CoreV1PersistentVolumeClaim } from '../../schema/generated/types.ts';

const betaClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

export async function assignDefaultStorageClass(claim: CoreV1PersistentVolumeClaim & KubeObject, ctx: StrategyContext): Promise<void> {
  if (claim.spec?.storageClassName != null || claim.metadata.annotations?.[betaClassAnnotation] != null) return;
  const chosen = defaultClassOf((await ctx.listOther?.('storage.k8s.io', 'storageclasses')) ?? []);
  if (chosen) claim.spec = { ...claim.spec, storageClassName: chosen.metadata?.name };
}
