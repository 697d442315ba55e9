// What a pod as a whole requests and is limited to, as Kubernetes' resource helpers add it up for
// quota and LimitRange's Pod limits: regular containers and restartable (sidecar) init containers
// run together and add up, each ordinary init container runs alone beside the sidecars started
// before it, the larger of the two phases counts, and the pod's overhead is added (to limits only
// where a limit is set). Pod-level resources, where given, stand for the pod's cpu and memory.

import { compareQuantities } from './quantity.ts';
import { add, type ResourceList } from './quota/resource-list.ts';

interface Container { resources?: { requests?: ResourceList; limits?: ResourceList }; restartPolicy?: string }
export interface ResourcePod {
  spec?: {
    containers?: Container[];
    initContainers?: Container[];
    overhead?: ResourceList;
    resources?: { requests?: ResourceList; limits?: ResourceList };
  };
}

/** the larger of each name in a and b */
function max(a: ResourceList, b: ResourceList): ResourceList {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) if (!(k in out) || (compareQuantities(v, out[k]) ?? 0) > 0) out[k] = v;
  return out;
}

// the resources pod-level requests and limits may set
const podLevelNames = (name: string) => name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');

function aggregate(pod: ResourcePod, which: 'requests' | 'limits'): ResourceList {
  const spec = pod.spec ?? {};
  let sum: ResourceList = {};
  for (const c of spec.containers ?? []) sum = add(sum, c.resources?.[which]);
  let sidecars: ResourceList = {};
  let init: ResourceList = {};
  for (const c of spec.initContainers ?? []) {
    const own = c.resources?.[which] ?? {};
    if (c.restartPolicy === 'Always') {
      sum = add(sum, own);
      sidecars = add(sidecars, own);
      init = max(init, sidecars);
    } else {
      init = max(init, add(own, sidecars));
    }
  }
  sum = max(sum, init);
  const podLevel = spec.resources?.[which];
  if (podLevel) for (const [k, v] of Object.entries(podLevel)) if (podLevelNames(k)) sum[k] = v;
  for (const [k, v] of Object.entries(spec.overhead ?? {})) {
    if (which === 'requests' || k in sum) sum = add(sum, { [k]: v });
  }
  return sum;
}

export function podRequests(pod: ResourcePod): ResourceList { return aggregate(pod, 'requests'); }
export function podLimits(pod: ResourcePod): ResourceList { return aggregate(pod, 'limits'); }
