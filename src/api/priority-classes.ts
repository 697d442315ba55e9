// PriorityClass figures Kubernetes fixes: the highest value a user's class may have, the two
// system classes kube-apiserver creates at start (the only names with the `system-` prefix),
// and what a pod gets when no class is named and none is the global default.

export const highestUserDefinablePriority = 1_000_000_000;
export const systemCriticalPriority = 2 * highestUserDefinablePriority;
export const systemPriorityClassPrefix = 'system-';
/** a pod naming no class, with no globalDefault class in the cluster */
export const defaultPriorityWhenNoDefaultClass = 0;
export const defaultPreemptionPolicy = 'PreemptLowerPriority';
export const preemptionPolicies = ['PreemptLowerPriority', 'Never'];

export interface SystemPriorityClass { name: string; value: number; description: string }

export const systemPriorityClasses: readonly SystemPriorityClass[] = [
  { name: 'system-node-critical', value: systemCriticalPriority + 1000, description: 'Used for system critical pods that must not be moved from their current node.' },
  { name: 'system-cluster-critical', value: systemCriticalPriority, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
];

/** why `name` (with the system prefix) is not acceptable with this value and globalDefault; undefined when it is */
export function systemClassError(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = systemPriorityClasses.find(c => c.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}
