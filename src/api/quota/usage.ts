// A quota's usage counted from the objects of its namespace, as the resourcequota controller
// recalculates it: which collections a quota's hard list needs, each resource it limits summed
// over the objects its scopes match (zero when none), and whether the status needs writing.

import { evaluatorFor } from './evaluators.ts';
import { add, equals, mask, type ResourceList } from './resource-list.ts';
import { scopeRequirements } from './scopes.ts';
import type { Quota } from './admission-check.ts';

export interface GroupResource { group: string; resource: string }

const dedicated: GroupResource[] = [
  { group: '', resource: 'pods' },
  { group: '', resource: 'services' },
  { group: '', resource: 'persistentvolumeclaims' },
  { group: '', resource: 'configmaps' },
  { group: '', resource: 'secrets' },
  { group: '', resource: 'resourcequotas' },
  { group: '', resource: 'replicationcontrollers' },
];

/** the group resource a `count/<resource>[.<group>]` name counts */
export function parseObjectCountName(name: string): GroupResource | undefined {
  if (!name.startsWith('count/')) return undefined;
  const rest = name.slice('count/'.length);
  const dot = rest.indexOf('.');
  if (!rest || dot === 0) return undefined;
  return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
}

/** the collections whose objects the quota's hard names count, each once */
export function countedResources(hardNames: string[]): GroupResource[] {
  const out = new Map<string, GroupResource>();
  const put = (gr: GroupResource) => out.set(`${gr.resource}.${gr.group}`, gr);
  for (const gr of dedicated) if (evaluatorFor(gr.group, gr.resource).matchingResources(hardNames).length) put(gr);
  for (const n of hardNames) {
    const gr = parseObjectCountName(n);
    if (gr && evaluatorFor(gr.group, gr.resource).matchingResources([n]).length) put(gr);
  }
  return [...out.values()];
}

/**
 * What the quota's resources add up to over `objects` (each collection's objects in the
 * quota's namespace); only the names the hard list has, each present (zero when nothing counts).
 */
export function calculateUsage(quota: Quota, objects: Array<GroupResource & { items: any[] }>, now: number): ResourceList {
  const hardNames = Object.keys(quota.spec?.hard ?? {});
  const scopes = scopeRequirements(quota.spec);
  let used: ResourceList = {};
  for (const { group, resource, items } of objects) {
    const evaluator = evaluatorFor(group, resource);
    const names = evaluator.matchingResources(hardNames);
    if (!names.length) continue;
    for (const n of names) if (!(n in used)) used[n] = '0';
    for (const obj of items) {
      if (!scopes.every(r => evaluator.matchesScope(r, obj))) continue;
      used = add(used, mask(evaluator.usage(obj, now), names));
    }
  }
  return used;
}

/**
 * The status the controller writes: hard copied from spec, used from the count (earlier figures
 * kept for names it could not count, dropped for names no longer limited); undefined when the
 * stored status already says this.
 */
export function nextQuotaStatus(quota: Quota, counted: ResourceList): { hard: ResourceList; used: ResourceList } | undefined {
  const hard = { ...quota.spec?.hard };
  const used = mask({ ...quota.status?.used, ...counted }, Object.keys(hard));
  const st = quota.status;
  const dirty = !st?.hard || !st.used || !equals(hard, st.hard) || !equals(used, st.used);
  return dirty ? { hard, used } : undefined;
}
