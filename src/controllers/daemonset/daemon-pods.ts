// What a DaemonSet's pods are: the template at its revision (hash label, template generation
// when the set carries one, the daemon tolerations), pinned to a node; and whether a pod runs
// the current template. Pure.

import { deepClone } from '../../api/object.ts';
import type { CoreV1Pod } from '../../schema/generated/types.ts';
import { revisionHashLabel } from '../history/revisions.ts';
import { controllerRefTo } from '../owner-refs.ts';
import { pinnedToNode, withDaemonTolerations, type DaemonSet } from './placement.ts';

/** the label the template generation went by before revisions, still written and read */
export const templateGenerationLabel = 'pod-template-generation';
const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

export function templateGeneration(ds: DaemonSet): string | undefined {
  const g = ds.metadata.annotations?.[templateGenerationAnnotation];
  return g !== undefined && /^\d+$/.test(g) ? g : undefined;
}

export function daemonPod(ds: DaemonSet, hash: string, node: string): CoreV1Pod {
  const t = deepClone(ds.spec?.template ?? {});
  const generation = templateGeneration(ds);
  const spec = withDaemonTolerations(t.spec ?? { containers: [] });
  spec.affinity = pinnedToNode(spec.affinity, node);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${ds.metadata.name}-`,
      namespace: ds.metadata.namespace,
      labels: { ...t.metadata?.labels, ...(generation ? { [templateGenerationLabel]: generation } : {}), [revisionHashLabel]: hash },
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
      ...(t.metadata?.finalizers ? { finalizers: t.metadata.finalizers } : {}),
      ownerReferences: [controllerRefTo({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: ds.metadata })],
    },
    spec,
  };
}

/** the pod runs the set's current template: its hash label, or the template generation, says so */
export function isPodUpdated(pod: CoreV1Pod, hash: string, generation: string | undefined): boolean {
  const labels = pod.metadata?.labels ?? {};
  return (!!hash && labels[revisionHashLabel] === hash) || (generation !== undefined && labels[templateGenerationLabel] === generation);
}

/** pods bound to a node first, then oldest first, then by name, as Kubernetes orders a node's daemon pods */
export function byAgeAndPhase(a: CoreV1Pod, b: CoreV1Pod): number {
  const boundA = !!a.spec?.nodeName;
  const boundB = !!b.spec?.nodeName;
  if (boundA !== boundB) return boundA ? -1 : 1;
  const ta = a.metadata?.creationTimestamp ?? '';
  const tb = b.metadata?.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
}
