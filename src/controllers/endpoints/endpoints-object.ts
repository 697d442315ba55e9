// The core/v1 Endpoints object a service should have, from the one it has: the subsets, the
// service's labels (with the headless label for services without a cluster IP), the trigger
// time and over-capacity annotations. Undefined when the current object is already right.

import { jsonEqual } from '../../api/object.ts';
import type { CoreV1EndpointSubset, CoreV1Endpoints } from '../../schema/generated/types.ts';
import { endpointSubsets, truncateSubsets } from './endpoints-subsets.ts';
import type { Pod, Service } from './pod-endpoint.ts';
import { headlessLabel, triggerTimeAnnotation } from './slice-reconcile.ts';

export const overCapacityAnnotation = 'endpoints.kubernetes.io/over-capacity';

export type EndpointsObject = CoreV1Endpoints & { metadata: { name: string; namespace?: string; [k: string]: any } };

const withoutRV = (subsets: CoreV1EndpointSubset[] | undefined) => (subsets ?? []).map(s => ({
  ...s,
  addresses: s.addresses?.map(a => ({ ...a, targetRef: a.targetRef && { ...a.targetRef, resourceVersion: undefined } })),
  notReadyAddresses: s.notReadyAddresses?.map(a => ({ ...a, targetRef: a.targetRef && { ...a.targetRef, resourceVersion: undefined } })),
}));

function countOf(subsets: CoreV1EndpointSubset[] | undefined): number {
  return (subsets ?? []).reduce((n, s) => n + (s.addresses?.length ?? 0) + (s.notReadyAddresses?.length ?? 0), 0);
}

export function desiredEndpoints(svc: Service, pods: Pod[], current: EndpointsObject | undefined, triggerTime: string | undefined, capacity?: number): EndpointsObject | undefined {
  const subsets = endpointSubsets(svc, pods);
  const labels = { ...svc.metadata.labels };
  const { [headlessLabel]: _h, ...currentLabels } = current?.metadata.labels ?? {};
  const overCapacity = current?.metadata.annotations?.[overCapacityAnnotation] !== undefined;
  const capacityRight = countOf(current?.subsets) <= (capacity ?? 1000) && !overCapacity;
  if (current && jsonEqual(withoutRV(current.subsets), withoutRV(subsets)) && jsonEqual(currentLabels, svc.metadata.labels ?? {}) && capacityRight) return undefined;

  const annotations: Record<string, string> = { ...current?.metadata.annotations };
  if (triggerTime) annotations[triggerTimeAnnotation] = triggerTime;
  else delete annotations[triggerTimeAnnotation];
  if (truncateSubsets(subsets, capacity)) annotations[overCapacityAnnotation] = 'truncated';
  else delete annotations[overCapacityAnnotation];
  if (svc.spec?.clusterIP === 'None' || !svc.spec?.clusterIP) labels[headlessLabel] = '';
  else delete labels[headlessLabel];

  const metadata = { ...(current?.metadata ?? { name: svc.metadata.name, namespace: svc.metadata.namespace }), labels, annotations };
  const out: EndpointsObject = { apiVersion: 'v1', kind: 'Endpoints', metadata };
  if (subsets.length) out.subsets = subsets;
  return out;
}
