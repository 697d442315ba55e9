// A StatefulSet pod's identity: its ordinal (`<set>-<i>`, counting from spec.ordinals.start),
// hostname and subdomain, the labels that name it, and the claims its volume templates give
// it (`<claim>-<set>-<i>`), as Kubernetes' StatefulSet controller builds and checks them. Pure.

import { deepClone } from '../../api/object.ts';
import type { AppsV1StatefulSet, CoreV1PersistentVolumeClaim, CoreV1Pod, CoreV1PodTemplateSpec } from '../../schema/generated/types.ts';
import { controllerRefTo } from '../owner-refs.ts';
import { revisionHashLabel } from '../history/revisions.ts';

export type StatefulSet = AppsV1StatefulSet & { metadata: { name: string; namespace: string; uid?: string } };

export const podNameLabel = 'statefulset.kubernetes.io/pod-name';
export const podIndexLabel = 'apps.kubernetes.io/pod-index';

const podNamePattern = /^(.*)-([0-9]+)$/;

/** the parent's name and the ordinal a pod's name carries; ordinal -1 when it carries none */
export function parentAndOrdinal(podName: string): { parent: string; ordinal: number } {
  const m = podNamePattern.exec(podName);
  if (!m) return { parent: '', ordinal: -1 };
  const n = Number(m[2]);
  return Number.isSafeInteger(n) && n <= 2 ** 31 - 1 ? { parent: m[1]!, ordinal: n } : { parent: m[1]!, ordinal: -1 };
}

export const ordinalOf = (pod: CoreV1Pod): number => parentAndOrdinal(pod.metadata?.name ?? '').ordinal;
export const startOrdinal = (set: StatefulSet): number => set.spec?.ordinals?.start ?? 0;
export const replicasOf = (set: StatefulSet): number => set.spec?.replicas ?? 1;
/** the last ordinal the set keeps (inclusive) */
export const endOrdinal = (set: StatefulSet): number => startOrdinal(set) + replicasOf(set) - 1;

export function inOrdinalRange(pod: CoreV1Pod, set: StatefulSet): boolean {
  const o = ordinalOf(pod);
  return o >= startOrdinal(set) && o <= endOrdinal(set);
}

export const podName = (set: StatefulSet, ordinal: number): string => `${set.metadata.name}-${ordinal}`;
export const claimName = (set: StatefulSet, template: string, ordinal: number): string => `${template}-${set.metadata.name}-${ordinal}`;

export function isMemberOf(set: StatefulSet, pod: CoreV1Pod): boolean {
  return parentAndOrdinal(pod.metadata?.name ?? '').parent === set.metadata.name;
}

export function identityMatches(set: StatefulSet, pod: CoreV1Pod): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod.metadata?.name ?? '');
  return ordinal >= 0 && parent === set.metadata.name && pod.metadata?.name === podName(set, ordinal)
    && pod.metadata?.namespace === set.metadata.namespace && pod.metadata?.labels?.[podNameLabel] === pod.metadata?.name;
}

/** every claim template has a volume of the same name mounting this pod's claim */
export function storageMatches(set: StatefulSet, pod: CoreV1Pod): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map((pod.spec?.volumes ?? []).map(v => [v.name, v]));
  return (set.spec?.volumeClaimTemplates ?? []).every(t => volumes.get(t.metadata?.name ?? '')?.persistentVolumeClaim?.claimName === claimName(set, t.metadata?.name ?? '', ordinal));
}

/** the claims a pod of this ordinal uses, by template name: the template, named for the pod, with the set's selector labels */
export function claimsFor(set: StatefulSet, ordinal: number): Map<string, CoreV1PersistentVolumeClaim> {
  const out = new Map<string, CoreV1PersistentVolumeClaim>();
  for (const t of set.spec?.volumeClaimTemplates ?? []) {
    const c = deepClone(t);
    const template = t.metadata?.name ?? '';
    c.apiVersion = 'v1';
    c.kind = 'PersistentVolumeClaim';
    c.metadata = { ...c.metadata, name: claimName(set, template, ordinal), namespace: set.metadata.namespace, labels: { ...c.metadata?.labels, ...set.spec?.selector?.matchLabels } };
    delete c.status;
    out.set(template, c);
  }
  return out;
}

/** the identity labels, set on a pod in place */
export function applyIdentityLabels(set: StatefulSet, pod: CoreV1Pod): void {
  const ordinal = ordinalOf(pod);
  const labels = (pod.metadata ??= {}).labels ??= {};
  labels[podNameLabel] = podName(set, ordinal);
  labels[podIndexLabel] = String(ordinal);
}

/** the pod of this ordinal from the set's template (the set at the revision it should run), labelled with that revision */
export function newStatefulPod(set: StatefulSet, template: CoreV1PodTemplateSpec, ordinal: number, revision: string): CoreV1Pod {
  const t = deepClone(template);
  const name = podName(set, ordinal);
  const pod: CoreV1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: set.metadata.namespace,
      labels: { ...t.metadata?.labels },
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
      ...(t.metadata?.finalizers ? { finalizers: t.metadata.finalizers } : {}),
      ownerReferences: [controllerRefTo({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: set.metadata })],
    },
    spec: { ...t.spec!, hostname: name, ...(set.spec?.serviceName ? { subdomain: set.spec.serviceName } : {}) },
  };
  applyIdentityLabels(set, pod);
  pod.metadata!.labels![revisionHashLabel] = revision;
  // the claims' volumes replace template volumes of the same name
  const claims = claimsFor(set, ordinal);
  const kept = (pod.spec!.volumes ?? []).filter(v => !claims.has(v.name));
  const fromClaims = [...claims].map(([volume, c]) => ({ name: volume, persistentVolumeClaim: { claimName: c.metadata!.name! } }));
  if (fromClaims.length || kept.length) pod.spec!.volumes = [...fromClaims, ...kept];
  return pod;
}

export const podRevision = (pod: CoreV1Pod): string => pod.metadata?.labels?.[revisionHashLabel] ?? '';
