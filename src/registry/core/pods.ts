// Pods: defaults, Pending until a node agent reports, and graceful deletion once bound to a node.

import { strategyWith } from '../strategy.ts';
import { isObject, type KubeObject } from '../../api/object.ts';
import type { CoreV1Pod } from '../../schema/generated/types.ts';
import { validatePodSpec } from '../validation/pod-spec.ts';
import { validatePodSpecUpdate } from '../validation/immutable.ts';
import { validateEphemeralContainers, validateNoEphemeralContainersOnCreate } from '../validation/ephemeral-containers.ts';
import { defaultPodSpec } from '../defaults/pod-spec.ts';
import { defaultRequestsFromLimits } from '../defaults/pod-requests.ts';
import { computeQosClass } from '../../api/qos.ts';
import { syncAppArmorAnnotations } from '../defaults/apparmor-annotations.ts';

type Pod = CoreV1Pod & KubeObject;

function defaultPod(obj: Pod): void {
  if (!isObject(obj.spec)) return;
  defaultPodSpec(obj.spec);
  defaultRequestsFromLimits(obj.spec);
}

export const podStrategy = strategyWith<Pod>({
  tracksGeneration: true,
  returnDeletedObject: true,
  prepareForCreate(obj) {
    if (!isObject(obj.spec)) obj.spec = { containers: [] };
    defaultPod(obj);
    // what the mutating phase sees: the empty status a decoded body has
    obj.status = {};
  },
  defaults: defaultPod,
  // after the admission chain's mutating plugins (apiserver/admission), as Kubernetes'
  // PrepareForCreate: Pending, and the QoS class of the resources as the mutating plugins left
  // them (LimitRanger's defaults)
  admitCreate(obj) {
    obj.status = { phase: 'Pending', qosClass: computeQosClass(obj) };
    syncAppArmorAnnotations(obj);
  },
  validateCreate: obj => [...validatePodSpec(obj.spec, 'spec'), ...validateEphemeralContainers(obj.spec), ...validateNoEphemeralContainersOnCreate(obj.spec)],
  // (ephemeral containers change only through pods/ephemeralcontainers: validatePodSpecUpdate refuses it here)
  validateUpdate: (obj, old) => [...validatePodSpec(obj.spec, 'spec'), ...validateEphemeralContainers(obj.spec), ...validatePodSpecUpdate(obj, old)],
  deleteDecision(obj, requested) {
    const s = obj.spec ?? { containers: [] };
    const phase = obj.status?.phase;
    // not yet on a node, or finished: nothing runs that would need time to stop
    if (!s.nodeName || phase === 'Succeeded' || phase === 'Failed') return { gracePeriodSeconds: 0 };
    const grace = requested ?? (typeof s.terminationGracePeriodSeconds === 'number' ? s.terminationGracePeriodSeconds : 30);
    return { gracePeriodSeconds: Math.max(0, grace) };
  },
});
