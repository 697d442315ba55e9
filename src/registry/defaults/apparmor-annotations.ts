// The deprecated per-container AppArmor annotations carried into the appArmorProfile field on
// create, as kube-apiserver's pod strategy does since the field went GA (v1.30): a container
// with an annotation and no profile of its own gets the profile the annotation names, unless
// that is what the pod already sets or the annotation names no valid profile. Admission (the
// PodSecurity checks) then sees both.

import type { CoreV1AppArmorProfile, CoreV1Container, CoreV1Pod } from '../../schema/generated/types.ts';

const prefix = 'container.apparmor.security.beta.kubernetes.io/';

function fieldFor(annotation: string): CoreV1AppArmorProfile | undefined {
  if (annotation === 'unconfined') return { type: 'Unconfined' };
  if (annotation === 'runtime/default') return { type: 'RuntimeDefault' };
  if (!annotation.startsWith('localhost/')) return undefined;
  const profile = annotation.slice('localhost/'.length);
  // what field validation would refuse is not copied: empty, padded, longer than PATH_MAX - 1
  if (!profile || profile.trim() !== profile || Buffer.byteLength(profile) > 4095) return undefined;
  return { type: 'Localhost', localhostProfile: profile };
}

const same = (a: CoreV1AppArmorProfile, b: CoreV1AppArmorProfile | undefined) => !!b && a.type === b.type && (a.localhostProfile ?? null) === (b.localhostProfile ?? null);

export function syncAppArmorAnnotations(pod: CoreV1Pod): void {
  const spec = pod.spec;
  if (!spec || spec.os?.name === 'windows') return;
  const annotations = pod.metadata?.annotations ?? {};
  const podProfile = spec.securityContext?.appArmorProfile ?? undefined;
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...((spec.ephemeralContainers ?? []) as CoreV1Container[])];
  for (const c of containers) {
    const key = prefix + c.name;
    if (!(key in annotations) || c.securityContext?.appArmorProfile) continue;
    const field = fieldFor(annotations[key]!);
    if (field && !same(field, podProfile)) c.securityContext = { ...c.securityContext, appArmorProfile: field };
  }
}
