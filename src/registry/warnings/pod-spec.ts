// kube-apiserver's warnings for a pod or a pod template (pkg/api/pod's GetWarningsForPod and
// GetWarningsForPodTemplate), in its order and words: deprecated node labels, annotations and
// volume types, duplicates that apply would merge, values that validation lets through but
// that cannot mean what they say. A template's paths carry its prefix ("spec.template.").

import type { CoreV1PodSpec } from '../../schema/generated/types.ts';
import { nodeLabelDeprecation, nodeSelectorTermWarnings } from './node-labels.ts';
import { claimSpecWarnings, fractionalByteWarnings } from './fractional-bytes.ts';
import { overlappingPathWarnings } from './volume-paths.ts';
import { containerWarnings, portWarnings } from './pod-containers.ts';

const deprecatedAnnotations: Array<[string, string]> = [
  ['scheduler.alpha.kubernetes.io/critical-pod', 'non-functional in v1.16+; use the "priorityClassName" field instead'],
  ['security.alpha.kubernetes.io/sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
  ['security.alpha.kubernetes.io/unsafe-sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
];

/** volume types deprecated or gone, under their field names as Kubernetes' paths spell them */
const deprecatedVolumes: Array<[json: string, path: string, message: string]> = [
  ['photonPersistentDisk', 'photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['gitRepo', 'gitRepo', 'deprecated in v1.11'],
  ['scaleIO', 'scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['flocker', 'flocker', 'deprecated in v1.22, non-functional in v1.25+'],
  ['storageos', 'storageOS', 'deprecated in v1.22, non-functional in v1.25+'],
  ['quobyte', 'quobyte', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['cephfs', 'cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['rbd', 'rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

const seccompPodAnnotation = 'seccomp.security.alpha.kubernetes.io/pod';
const nullSelector = 'a null labelSelector results in matching no pod';

export interface PodParts {
  spec?: CoreV1PodSpec | null;
  metadata?: { annotations?: Record<string, string> | null } | null;
}

/** a pod's warnings (`prefix` ''), or a template's under its path (`spec.template`) */
export function podWarnings(pod: PodParts, prefix = ''): string[] {
  const spec = pod.spec;
  if (!spec) return [];
  const at = (p: string) => (prefix ? `${prefix}.${p}` : p);
  const annotations = pod.metadata?.annotations ?? {};
  const out: string[] = [];

  for (const k of Object.keys(spec.nodeSelector ?? {})) {
    const msg = nodeLabelDeprecation(k);
    if (msg) out.push(`${at('spec.nodeSelector')}[${k}]: ${msg}`);
  }
  const nodeAffinity = spec.affinity?.nodeAffinity;
  if (nodeAffinity) {
    const terms = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
    terms.forEach((t, i) => out.push(...nodeSelectorTermWarnings(t, `${at('spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms')}[${i}]`)));
    (nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => out.push(...nodeSelectorTermWarnings(t?.preference, `${at('spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution')}[${i}].preference`)));
  }
  (spec.topologySpreadConstraints ?? []).forEach((t, i) => {
    const path = `${at('spec.topologySpreadConstraints')}[${i}]`;
    const msg = nodeLabelDeprecation(t.topologyKey);
    if (msg) out.push(`${path}.topologyKey: ${t.topologyKey} is ${msg}`);
    if (!t.labelSelector) out.push(`${path}.labelSelector: ${nullSelector}`);
  });

  for (const [key, message] of deprecatedAnnotations) {
    if (Object.hasOwn(annotations, key)) out.push(`${at('metadata.annotations')}[${key}]: ${message}`);
  }

  (spec.volumes ?? []).forEach((v, i) => {
    const volume = v as unknown as Record<string, unknown>;
    for (const [json, path, message] of deprecatedVolumes) {
      if (volume[json] != null) out.push(`${at('spec.volumes')}[${i}].${path}: ${message}`);
    }
    const claim = v.ephemeral?.volumeClaimTemplate;
    if (claim) out.push(...claimSpecWarnings(claim.spec, `${at('spec.volumes')}[${i}].ephemeral.volumeClaimTemplate.spec`));
  });
  out.push(...overlappingPathWarnings(spec.volumes as unknown as Array<Record<string, unknown>>));

  out.push(...duplicates(spec.hostAliases?.map(a => a.ip) ?? [], i => `${at('spec.hostAliases')}[${i}].ip`, 'ip'));
  const pullSecrets = spec.imagePullSecrets?.map(s => s.name ?? '') ?? [];
  out.push(...duplicates(pullSecrets, i => `${at('spec.imagePullSecrets')}[${i}].name`, 'name'));
  pullSecrets.forEach((n, i) => { if (n === '') out.push(`${at('spec.imagePullSecrets')}[${i}].name: invalid empty name ""`); });

  out.push(...fractionalByteWarnings(spec.overhead, at('spec.overhead')));
  if (!spec.securityContext?.seccompProfile && Object.hasOwn(annotations, seccompPodAnnotation)) {
    out.push(`${at('metadata.annotations')}[${seccompPodAnnotation}]: non-functional in v1.27+; use the "seccompProfile" field instead`);
  }
  out.push(...containerWarnings(spec, at('spec'), at('metadata.annotations'), annotations, prefix !== ''));
  out.push(...portWarnings(spec, at('spec')));

  if (typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0) {
    out.push(`${at('spec.terminationGracePeriodSeconds')}: must be >= 0; negative values are invalid and will be treated as 1`);
  }
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const a = spec.affinity?.[kind];
    if (!a) continue;
    const base = at(`spec.affinity.${kind}`);
    (a.requiredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => { if (!t.labelSelector) out.push(`${base}.requiredDuringSchedulingIgnoredDuringExecution[${i}].labelSelector: ${nullSelector}`); });
    (a.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => { if (!t.podAffinityTerm?.labelSelector) out.push(`${base}.preferredDuringSchedulingIgnoredDuringExecution[${i}].podAffinityTerm.labelSelector: ${nullSelector}`); });
  }
  return out;
}

/** each repeat of a value after its first, in Go's %q */
function duplicates(values: string[], path: (i: number) => string, what: string): string[] {
  if (values.length < 2) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  values.forEach((v, i) => {
    if (seen.has(v)) out.push(`${path(i)}: duplicate ${what} ${JSON.stringify(v)}`);
    else seen.add(v);
  });
  return out;
}
