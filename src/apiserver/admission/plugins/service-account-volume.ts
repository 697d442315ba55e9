// The ServiceAccount plugin's token volume: `kube-api-access-<5 random>`, a projected volume
// with a bound token for the API server, the cluster CA from the kube-root-ca.crt ConfigMap and
// the pod's namespace, mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in
// every container and init container that mounts nothing there already — the shape
// kube-apiserver gives it, so in-cluster clients find their credentials where they look.

import type { CoreV1PodSpec, CoreV1Volume } from '../../../schema/generated/types.ts';

export const tokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
export const tokenVolumePrefix = 'kube-api-access-';
/** the characters Kubernetes' name generator draws from (no vowels, no look-alikes) */
const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
/** the lifetime asked for: the API server extends it to a year, but warns on use after this */
export const tokenLifetimeSeconds = 3607;

export function tokenVolume(name: string): CoreV1Volume {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: tokenLifetimeSeconds, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 0o644,
    },
  };
}

/** mounts the token into `spec` (a pod being created); the volume is added only if a container mounts it */
export function mountServiceAccountToken(spec: CoreV1PodSpec, random: () => number): void {
  const volumes = spec.volumes ?? [];
  // a pod that carries one already (its spec copied from another pod's) keeps it and its name;
  // malformed entries (null) are the strategy's to refuse, after admission
  const existing = volumes.find(v => typeof v?.name === 'string' && v.name.startsWith(tokenVolumePrefix))?.name;
  const name = existing ?? tokenVolumePrefix + Array.from({ length: 5 }, () => alphabet[Math.floor(random() * alphabet.length) % alphabet.length]).join('');
  let needed = false;
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    if (!c || typeof c !== 'object') continue;
    const mounts = Array.isArray(c.volumeMounts) ? c.volumeMounts : [];
    // something of the pod's own at the token path keeps the token out of that container
    if (mounts.some(m => m?.mountPath === tokenMountPath)) continue;
    c.volumeMounts = [...mounts, { name, readOnly: true, mountPath: tokenMountPath }];
    needed = true;
  }
  if (!existing && needed) spec.volumes = [...volumes, tokenVolume(name)];
}
