// LimitRanger: the namespace's LimitRanges give a new pod's containers the default requests and
// limits they leave out (mutating, with the kubernetes.io/limit-ranger annotation), then hold
// pods and claims to their min, max and maxLimitRequestRatio (validating), refusing with
// Kubernetes' 403 (`pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2`).
// Pod updates are left alone (their containers cannot change) but for pods/resize.

import type { KubeObject } from '../../../api/object.ts';
import { applyPodDefaults, type DefaultablePod, type LimitRange } from '../../../api/limit-range/defaults.ts';
import { validateClaim, validatePod } from '../../../api/limit-range/checks.ts';
import type { AdmissionAttributes, AdmissionDeps, AdmissionPlugin } from '../types.ts';
import { admissionForbidden } from '../errors.ts';

type Kind = 'pod' | 'claim';

/** what LimitRanger looks at: new pods and claims, claim updates, and pod resizes */
function kindOf(a: AdmissionAttributes): Kind | undefined {
  if (a.resource.group !== '' || (a.operation !== 'CREATE' && a.operation !== 'UPDATE') || !a.object) return undefined;
  // an object already being deleted is only finishing
  if (a.oldObject?.metadata.deletionTimestamp) return undefined;
  const r = a.resource.resource;
  if (r === 'pods' && a.operation === 'UPDATE') return a.subresource === 'resize' ? 'pod' : undefined;
  if (a.subresource) return undefined;
  return r === 'pods' ? 'pod' : r === 'persistentvolumeclaims' ? 'claim' : undefined;
}

export function limitRanger(deps: AdmissionDeps): AdmissionPlugin {
  const info = deps.catalog.lookup('', 'v1', 'limitranges');
  // read once per object: the validating half sees the ranges the mutating half applied
  const seen = new WeakMap<object, LimitRange[]>();
  async function ranges(a: AdmissionAttributes): Promise<LimitRange[]> {
    const known = seen.get(a.object!);
    if (known) return known;
    const items = (info ? (await deps.registry.list(info, a.namespace)).items : []) as unknown as LimitRange[];
    seen.set(a.object!, items);
    return items;
  }
  return {
    name: 'LimitRanger',
    async admit(a) {
      if (kindOf(a) !== 'pod') return;
      for (const lr of await ranges(a)) applyPodDefaults(lr, a.object as KubeObject & DefaultablePod);
    },
    async validate(a) {
      const kind = kindOf(a);
      if (!kind) return;
      for (const lr of await ranges(a)) {
        const why = kind === 'pod' ? validatePod(lr, a.object as never) : validateClaim(lr, a.object as never);
        if (why) throw admissionForbidden(a, why);
      }
    },
  };
}
