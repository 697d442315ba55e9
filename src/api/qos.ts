// A pod's quality of service class, as Kubernetes derives it from the CPU and memory requests and
// limits of its containers and init containers: Guaranteed when every container limits both and
// requests equal limits, BestEffort when nothing is requested or limited, Burstable otherwise.
// The API server records it in status.qosClass at creation; the agent reads it from there.

import { compareQuantities, parseQuantity } from './quantity.ts';

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

type Amounts = Record<string, string | number | undefined>;
interface ContainerResources { name?: string; resources?: { requests?: Amounts; limits?: Amounts } }
export interface QosPod {
  spec?: { containers?: ContainerResources[]; initContainers?: ContainerResources[] };
  status?: { qosClass?: string };
}

const computeResources = ['cpu', 'memory'];

const positive = (q: string | number | undefined) => q !== undefined && (parseQuantity(String(q)) ?? 0) > 0;

/** the class the pod's containers give it */
export function computeQosClass(pod: QosPod): QosClass {
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    for (const r of computeResources) {
      // a request or a limit above zero, either one, makes the pod more than BestEffort
      if (positive(req[r]) || positive(lim[r])) any = true;
      if (lim[r] === undefined) { guaranteed = false; continue; }
      if (compareQuantities(req[r] ?? lim[r], lim[r]) !== 0) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** the class recorded in the pod's status, or the one its containers give it */
export function podQosClass(pod: QosPod): QosClass {
  return (pod.status?.qosClass as QosClass | undefined) || computeQosClass(pod);
}
