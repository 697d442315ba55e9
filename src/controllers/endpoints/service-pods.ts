// Which pods a service selects and which services select a pod: the link both endpoints
// controllers follow from pod events to the services to sync.

import { labelSelectorFromSet, matchesLabels } from '../../api/selectors/label.ts';
import { objectKey } from '../../client/informer.ts';
import type { Pod, Service } from './pod-endpoint.ts';

/**
 * a service the endpoints controllers publish endpoints for: it has a selector, is not
 * ExternalName and is not being deleted (the garbage collector, waiting on its dependents in a
 * foreground deletion, must not see new ones appear)
 */
export function publishesEndpoints(svc: Service): boolean {
  return !!svc.spec?.selector && svc.spec.type !== 'ExternalName' && !svc.metadata.deletionTimestamp;
}

export function selectedPods(svc: Service, pods: Iterable<Pod>): Pod[] {
  const sel = labelSelectorFromSet(svc.spec?.selector ?? {});
  const out: Pod[] = [];
  for (const p of pods) if (p.metadata.namespace === svc.metadata.namespace && matchesLabels(sel, p.metadata.labels)) out.push(p);
  return out;
}

/** keys of the services that select the pod with any of the label sets given (before and after an update) */
export function servicesSelecting(services: Iterable<Service>, namespace: string, ...labelSets: Array<Record<string, string> | undefined>): string[] {
  const keys: string[] = [];
  for (const svc of services) {
    if (svc.metadata.namespace !== namespace || !svc.spec?.selector) continue;
    const sel = labelSelectorFromSet(svc.spec.selector);
    if (labelSets.some(l => matchesLabels(sel, l))) keys.push(objectKey(svc));
  }
  return keys;
}

/** the parts of a pod whose change can change its endpoints */
export function endpointRelevant(pod: Pod): unknown {
  const s = pod.spec, st = pod.status;
  return [pod.metadata.labels, pod.metadata.deletionTimestamp, s?.nodeName, s?.hostname, s?.subdomain, s?.containers?.map(c => c.ports), st?.phase, st?.podIP, st?.podIPs,
    (st?.conditions ?? []).find(c => c.type === 'Ready')];
}
