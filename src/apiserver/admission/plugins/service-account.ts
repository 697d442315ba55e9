// ServiceAccount: a new pod runs as a service account that exists — `default` when it names
// none — and, unless the pod or its service account opts out, gets that account's token
// mounted (service-account-volume.ts) and its imagePullSecrets. Mirror pods (a node's static
// pods) are left as they are but may reference no service account, secret or token.

import { StatusError } from '../../../api/status.ts';
import type { KubeObject } from '../../../api/object.ts';
import type { CoreV1Pod, CoreV1PodSpec } from '../../../schema/generated/types.ts';
import type { AdmissionAttributes, AdmissionDeps, AdmissionPlugin } from '../types.ts';
import { admissionForbidden } from '../errors.ts';
import { mountServiceAccountToken } from './service-account-volume.ts';
import { podReferences } from './pod-references.ts';

export const mirrorPodAnnotation = 'kubernetes.io/config.mirror';
const defaultAccount = 'default';

type ServiceAccount = KubeObject & { automountServiceAccountToken?: boolean; imagePullSecrets?: { name?: string }[] };
type Pod = CoreV1Pod & KubeObject;

/** the pod's own choice first, then its service account's; mounted unless either says no */
export function shouldAutomount(spec: CoreV1PodSpec, sa: ServiceAccount): boolean {
  return spec.automountServiceAccountToken ?? sa.automountServiceAccountToken ?? true;
}

/** pods being created, nothing else: not their subresources, not updates */
function handles(a: AdmissionAttributes): a is AdmissionAttributes & { object: Pod } {
  return a.operation === 'CREATE' && a.resource.group === '' && a.resource.resource === 'pods' && a.subresource === '' && !!a.object;
}

export function serviceAccount(deps: AdmissionDeps): AdmissionPlugin {
  const info = deps.catalog.lookup('', 'v1', 'serviceaccounts')!;
  /**
   * the cache first; then storage, several times for `default`, which the service account
   * controller makes in a new namespace a moment after it appears (as Kubernetes waits for it)
   */
  async function lookup(a: AdmissionAttributes, name: string): Promise<ServiceAccount> {
    const attempts = name === defaultAccount ? 10 : 1;
    const pause = 100 + Math.floor(deps.random() * 100);
    for (let i = 0; i <= attempts; i++) {
      if (i > 1) await new Promise(r => setTimeout(r, pause));
      try {
        return await deps.registry.get(info, a.namespace, name, undefined, i === 0) as ServiceAccount;
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
    }
    // the singular resource is Kubernetes' wording here
    throw admissionForbidden(a, `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`);
  }
  return {
    name: 'ServiceAccount',
    async admit(a) {
      if (!handles(a)) return;
      const pod = a.object;
      if (isMirror(pod)) return checkMirror(a, pod);
      if (pod.spec !== undefined && (pod.spec === null || typeof pod.spec !== 'object')) return; // the strategy refuses it
      const spec = pod.spec ??= { containers: [] };
      if (!spec.serviceAccountName) spec.serviceAccountName = defaultAccount;
      const sa = await lookup(a, spec.serviceAccountName);
      if (shouldAutomount(spec, sa)) mountServiceAccountToken(spec, deps.random);
      if (!spec.imagePullSecrets?.length && sa.imagePullSecrets?.length) {
        spec.imagePullSecrets = sa.imagePullSecrets.map(s => ({ name: s.name }));
      }
    },
    async validate(a) {
      if (!handles(a)) return;
      const pod = a.object;
      if (isMirror(pod)) return checkMirror(a, pod);
      const name = pod.spec?.serviceAccountName;
      if (!name) throw admissionForbidden(a, `no service account specified for pod ${a.namespace}/${pod.metadata.name ?? ''}`);
      await lookup(a, name);
    },
  };
}

function isMirror(pod: Pod): boolean {
  return pod.metadata.annotations?.[mirrorPodAnnotation] !== undefined;
}

/** a node's static pod gets no API credentials of any kind */
function checkMirror(a: AdmissionAttributes, pod: Pod): void {
  const spec = pod.spec;
  if (spec?.serviceAccountName) throw admissionForbidden(a, 'a mirror pod may not reference service accounts');
  if (spec && podReferences(spec, 'secret')) throw admissionForbidden(a, 'a mirror pod may not reference secrets');
  if (spec?.volumes?.some(v => v?.projected?.sources?.some(s => s?.serviceAccountToken))) {
    throw admissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
  }
}
