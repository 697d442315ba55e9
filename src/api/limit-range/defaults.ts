// LimitRange defaults. The API server fills a Container item's defaults when the LimitRange is
// written (a default limit from max, a default request from the default limit, else from min),
// and the LimitRanger admission plugin gives each container of a new pod the default requests
// and limits it does not state, recording what it set in the kubernetes.io/limit-ranger
// annotation as Kubernetes words it.

import type { ResourceList } from '../quota/resource-list.ts';

export interface LimitRangeItem {
  type?: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}
export interface LimitRange { metadata?: { name?: string }; spec?: { limits?: LimitRangeItem[] } }

/** SetDefaults of a LimitRange item, applied when the LimitRange is created or updated (mutates) */
export function defaultLimitRangeItem(item: LimitRangeItem): void {
  if (item.type !== 'Container') return;
  item.default ??= {};
  item.defaultRequest ??= {};
  for (const [k, v] of Object.entries(item.max ?? {})) if (!(k in item.default)) item.default[k] = v;
  for (const [k, v] of Object.entries(item.default)) if (!(k in item.defaultRequest)) item.defaultRequest[k] = v;
  for (const [k, v] of Object.entries(item.min ?? {})) if (!(k in item.defaultRequest)) item.defaultRequest[k] = v;
}

export const limitRangerAnnotation = 'kubernetes.io/limit-ranger';

interface Container { name?: string; resources?: { requests?: ResourceList; limits?: ResourceList } }
export interface DefaultablePod {
  metadata: { annotations?: Record<string, string> };
  spec?: { containers?: Container[]; initContainers?: Container[] };
}

/** the default requests and limits of the LimitRange's Container items (a later item wins) */
export function containerDefaults(lr: LimitRange): { requests: ResourceList; limits: ResourceList } {
  const requests: ResourceList = {}, limits: ResourceList = {};
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest);
    Object.assign(limits, item.default);
  }
  return { requests, limits };
}

function mergeContainer(c: Container, d: { requests: ResourceList; limits: ResourceList }, kind: string, notes: string[]): void {
  const res = (c.resources ??= {});
  const limits = (res.limits ??= {}), requests = (res.requests ??= {});
  const setLimits: string[] = [], setRequests: string[] = [];
  for (const [k, v] of Object.entries(d.limits)) if (!(k in limits)) { limits[k] = v; setLimits.push(k); }
  for (const [k, v] of Object.entries(d.requests)) if (!(k in requests)) { requests[k] = v; setRequests.push(k); }
  if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${kind} ${c.name}`);
  if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${kind} ${c.name}`);
}

/** the LimitRange's defaults given to the pod's containers and init containers (mutates) */
export function applyPodDefaults(lr: LimitRange, pod: DefaultablePod): void {
  const d = containerDefaults(lr);
  const notes: string[] = [];
  for (const c of pod.spec?.containers ?? []) mergeContainer(c, d, 'container', notes);
  for (const c of pod.spec?.initContainers ?? []) mergeContainer(c, d, 'init container', notes);
  if (notes.length) {
    pod.metadata.annotations = { ...pod.metadata.annotations, [limitRangerAnnotation]: `LimitRanger plugin set: ${notes.join('; ')}` };
  }
}
