// What each kind of object costs a ResourceQuota, resource by resource, as Kubernetes' quota
// evaluators count it: pods (compute requests and limits, `pods` while not terminal, `count/pods`
// always), services (node ports and load balancers), persistent volume claims (storage, per
// storage class too), and one object for everything else (`count/<resource>.<group>`, plus the
// old names `configmaps`, `secrets`, `resourcequotas`, `replicationcontrollers`).

import { podLimits, podRequests } from '../pod-resources.ts';
import { podConstraints, podUsage, podResourceNames } from './pod-usage.ts';
import { podMatchesScope, type ScopeRequirement } from './scopes.ts';
import type { ResourceList } from './resource-list.ts';
import { exactQuantity, formatQuantity, quantityFamily } from '../quantity.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface Evaluator {
  /** the resources of a quota's hard list this evaluator counts */
  matchingResources(names: string[]): string[];
  /** what one object costs; `now` (ms) decides whether a deleted pod still counts */
  usage(obj: any, now: number): ResourceList;
  /** whether the object meets one scope requirement of a quota */
  matchesScope(r: ScopeRequirement, obj: any): boolean;
  /** whether a request of this kind can change usage */
  handles(operation: Operation, subresource: string): boolean;
  /** why the object cannot be admitted under a quota limiting `required`, or undefined */
  constraints(required: string[], obj: any): string | undefined;
}

/** `count/pods`, `count/deployments.apps`: the object-count name of a group resource */
export function objectCountName(group: string, resource: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

const noScope = () => false;
const noConstraints = () => undefined;

function objectCounter(group: string, resource: string, alias?: string): Evaluator {
  const names = [objectCountName(group, resource), ...(alias ? [alias] : [])];
  return {
    matchingResources: input => input.filter(n => names.includes(n)),
    usage: () => Object.fromEntries(names.map(n => [n, '1'])),
    matchesScope: noScope,
    handles: op => op === 'CREATE',
    constraints: noConstraints,
  };
}

const podEvaluator: Evaluator = {
  matchingResources: podResourceNames,
  usage: (pod: any, now) => podUsage(pod, now, podRequests(pod), podLimits(pod)),
  matchesScope: podMatchesScope,
  // a pod's resources change after creation only through pods/resize
  handles: (op, sub) => op === 'CREATE' || (op === 'UPDATE' && sub === 'resize'),
  constraints: podConstraints,
};

const serviceNames = ['count/services', 'services', 'services.loadbalancers', 'services.nodeports'];

const serviceEvaluator: Evaluator = {
  matchingResources: input => input.filter(n => serviceNames.includes(n)),
  usage(svc: any) {
    const spec = svc?.spec ?? {};
    const ports: any[] = spec.ports ?? [];
    const out: ResourceList = { 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '0' };
    if (spec.type === 'NodePort') out['services.nodeports'] = String(ports.length);
    if (spec.type === 'LoadBalancer') {
      // with node ports not allocated for the load balancer, only ports that name one count
      const counted = spec.allocateLoadBalancerNodePorts === false ? ports.filter(p => p?.nodePort).length : ports.length;
      out['services.nodeports'] = String(counted);
      out['services.loadbalancers'] = '1';
    }
    return out;
  },
  matchesScope: noScope,
  handles: op => op === 'CREATE' || op === 'UPDATE',
  constraints: noConstraints,
};

const storageClassInfix = '.storageclass.storage.k8s.io/';
const claimNames = ['persistentvolumeclaims', 'requests.storage'];

/** a claim's class: the beta annotation first, then spec.storageClassName */
function claimClass(pvc: any): string {
  return pvc?.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pvc?.spec?.storageClassName ?? '';
}

const claimEvaluator: Evaluator = {
  matchingResources: input => input.filter(n => n === 'count/persistentvolumeclaims' || claimNames.includes(n)
    || claimNames.some(c => n.endsWith(storageClassInfix + c))),
  usage(pvc: any) {
    const out: ResourceList = { persistentvolumeclaims: '1', 'count/persistentvolumeclaims': '1' };
    const cls = claimClass(pvc);
    if (cls) out[`${cls}${storageClassInfix}persistentvolumeclaims`] = '1';
    const storage = pvc?.spec?.resources?.requests?.storage;
    if (storage !== undefined) {
      // storage is counted in whole bytes (a fraction rounds up), as quota's own checks require
      const bytes = roundUpToWhole(String(storage));
      out['requests.storage'] = bytes;
      if (cls) out[`${cls}${storageClassInfix}requests.storage`] = bytes;
    }
    return out;
  },
  matchesScope: noScope,
  handles: op => op === 'CREATE' || op === 'UPDATE',
  constraints: noConstraints,
};

function roundUpToWhole(q: string): string {
  const x = exactQuantity(q);
  if (!x || x.scale === 0) return q;
  const unit = 10n ** BigInt(x.scale);
  if (x.num % unit === 0n) return q;
  const whole = x.num / unit + (x.num > 0n ? 1n : 0n);
  return formatQuantity({ num: whole, scale: 0 }, quantityFamily(q));
}

const legacyCounted: Record<string, string> = {
  configmaps: 'configmaps', secrets: 'secrets', resourcequotas: 'resourcequotas', replicationcontrollers: 'replicationcontrollers',
};

/** the evaluator of a group resource: a dedicated one, else a plain object count */
export function evaluatorFor(group: string, resource: string): Evaluator {
  if (!group) {
    if (resource === 'pods') return podEvaluator;
    if (resource === 'services') return serviceEvaluator;
    if (resource === 'persistentvolumeclaims') return claimEvaluator;
    return objectCounter(group, resource, legacyCounted[resource]);
  }
  return objectCounter(group, resource);
}
