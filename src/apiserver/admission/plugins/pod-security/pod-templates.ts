// Where each kind that embeds a pod keeps its pod template, and which pod updates are worth
// checking again: only a change of images or of the set of containers (the rest of a running
// pod's spec cannot change what it may do), as pod-security-admission decides.

import type { KubeObject } from '../../../../api/object.ts';
import type { CoreV1Container, CoreV1PodSpec } from '../../../../schema/generated/types.ts';
import type { PodMeta } from './checks/types.ts';

export interface PodTemplate { metadata?: PodMeta; spec?: CoreV1PodSpec }
type Extract = (o: KubeObject) => PodTemplate | undefined;

const specTemplate: Extract = o => (o as { spec?: { template?: PodTemplate } }).spec?.template ?? {};

const extractors: Record<string, Extract> = {
  '/podtemplates': o => (o as { template?: PodTemplate }).template ?? {},
  // the only kind whose template may be absent
  '/replicationcontrollers': o => (o as { spec?: { template?: PodTemplate } }).spec?.template,
  'apps/replicasets': specTemplate,
  'apps/deployments': specTemplate,
  'apps/statefulsets': specTemplate,
  'apps/daemonsets': specTemplate,
  'batch/jobs': specTemplate,
  'batch/cronjobs': o => (o as { spec?: { jobTemplate?: { spec?: { template?: PodTemplate } } } }).spec?.jobTemplate?.spec?.template ?? {},
};

/**
 * with no object: whether the resource embeds a pod (null) or not (undefined);
 * with one: its pod template, or undefined when it has none
 */
export function podTemplateOf(group: string, resource: string, o?: KubeObject): PodTemplate | null | undefined {
  const extract = extractors[`${group}/${resource}`];
  if (!extract) return undefined;
  return o ? extract(o) : null;
}

export function isSignificantPodUpdate(pod: { spec?: CoreV1PodSpec }, old: { spec?: CoreV1PodSpec }): boolean {
  const [s, o] = [pod.spec ?? { containers: [] }, old.spec ?? { containers: [] }];
  const changed = (a: CoreV1Container[] = [], b: CoreV1Container[] = []) => a.length !== b.length || a.some((c, i) => c.image !== b[i]!.image);
  if (changed(s.containers, o.containers) || changed(s.initContainers, o.initContainers)) return true;
  return (s.ephemeralContainers ?? []).some(c => {
    const before = (o.ephemeralContainers ?? []).find(x => x.name === c.name);
    return !before || before.image !== c.image;
  });
}
