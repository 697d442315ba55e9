// Whether a pod spec names Secrets or ConfigMaps anywhere (volumes, projections, env, envFrom,
// image pull secrets, volume plugins' secret references), as Kubernetes' pod visitors find them:
// mirror pods, made by nodes, may reference neither.

import type { CoreV1PodSpec } from '../../../schema/generated/types.ts';

/** the pod names a Secret or ConfigMap anywhere: volumes, projections, env, envFrom, pull secrets */
export function podReferences(spec: CoreV1PodSpec, kind: 'secret' | 'configMap'): boolean {
  if (kind === 'secret' && spec.imagePullSecrets?.length) return true;
  // malformed entries (null) are the strategy's to refuse, after admission
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])].filter(c => c && typeof c === 'object');
  for (const c of containers) {
    if (c.envFrom?.some(e => (kind === 'secret' ? e?.secretRef : e?.configMapRef))) return true;
    if (c.env?.some(e => (kind === 'secret' ? e?.valueFrom?.secretKeyRef : e?.valueFrom?.configMapKeyRef))) return true;
  }
  return (spec.volumes ?? []).some(v => !!v && !!(v[kind] || v.projected?.sources?.some(s => s?.[kind])
    || (kind === 'secret' && (v.cephfs?.secretRef || v.cinder?.secretRef || v.flexVolume?.secretRef || v.rbd?.secretRef
      || v.scaleIO?.secretRef || v.iscsi?.secretRef || v.storageos?.secretRef || v.csi?.nodePublishSecretRef || v.azureFile))));
}

