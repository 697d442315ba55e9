// A pod's quality of service class, as Kubernetes derives it from requests and limits of CPU and
// memory: Guaranteed when every container limits both and requests equal limits, BestEffort
// when nothing is requested or limited, Burstable otherwise.

import { parseQuantity } from '../../api/quantity.ts';

type Obj = Record<string, any>;

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

export function podQosClass(pod: Obj): QosClass {
  if (pod.status?.qosClass) return pod.status.qosClass;
  const containers: Obj[] = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    for (const r of ['cpu', 'memory']) {
      const q = req[r] ?? lim[r];
      if (q !== undefined && (parseQuantity(String(q)) ?? 0) > 0) any = true;
      if (lim[r] === undefined) { guaranteed = false; continue; }
      const want = req[r] ?? lim[r];
      if (parseQuantity(String(want)) !== parseQuantity(String(lim[r]))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
