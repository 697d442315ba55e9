// pods/ephemeralcontainers: the one way to add a debugging container to a running pod (kubectl
// debug patches it with a strategic merge patch). A write through it keeps the stored pod and
// takes only `spec.ephemeralContainers` from the body, as dropNonEphemeralContainerUpdates does;
// the new ones get the defaults every container gets, and validation
// (validation/ephemeral-containers.ts) refuses removing or changing one that is there. The node
// agent sees the new spec and starts the container.

import { deepClone, isObject, type KubeObject } from '../../api/object.ts';
import { defaultPodSpec } from '../defaults/pod-spec.ts';
import { validatePodSpec } from '../validation/pod-spec.ts';
import { validateEphemeralContainersUpdate } from '../validation/ephemeral-containers.ts';
import { ownKind, type Subresource } from './subresource.ts';

/** the stored pod with the ephemeral containers of the write, defaulted */
function prepare(obj: KubeObject, current: KubeObject): KubeObject {
  const out = deepClone(current);
  const spec = (isObject(out.spec) ? out.spec : (out.spec = {})) as Record<string, unknown>;
  const asked = isObject(obj.spec) ? obj.spec.ephemeralContainers : undefined;
  if (asked === undefined || asked === null) {
    delete spec.ephemeralContainers;
    return out;
  }
  // defaults as decoding fills them in Kubernetes (terminationMessagePath and policy, imagePullPolicy)
  const holder = { ephemeralContainers: deepClone(asked) };
  defaultPodSpec(holder);
  spec.ephemeralContainers = holder.ephemeralContainers;
  return out;
}

export const ephemeralContainersSubresource: Subresource = {
  name: 'ephemeralcontainers',
  verbs: ['get', 'patch', 'update'],
  connect: false,
  kind: ownKind,
  ownedFields: [['spec', 'ephemeralContainers']],
  view: { apply: true },
  writes: {
    prepare: (obj, current) => prepare(obj, current),
    validate: (obj, current) => validateEphemeralContainersUpdate(obj, current, validatePodSpec(obj.spec, 'spec')),
  },
};
