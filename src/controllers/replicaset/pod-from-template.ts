// The pod a replica controller creates from its template: named from `<owner>-`, the template's
// labels, annotations and finalizers, and a controller reference to the owner, as Kubernetes'
// GetPodFromTemplate builds it. Pure.

import { deepClone } from '../../api/object.ts';
import type { CoreV1Pod, CoreV1PodTemplateSpec } from '../../schema/generated/types.ts';
import { controllerRefTo, type Owner } from '../owner-refs.ts';

/** the API server shortens a long prefix before adding its 5 random characters */
export function generateNamePrefix(ownerName: string): string {
  return `${ownerName}-`;
}

export function podFromTemplate(template: CoreV1PodTemplateSpec | undefined, owner: Owner): CoreV1Pod {
  const t = deepClone(template ?? {});
  const meta = t.metadata ?? {};
  const pod: CoreV1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: generateNamePrefix(owner.metadata.name),
      namespace: owner.metadata.namespace,
      labels: meta.labels,
      annotations: meta.annotations,
      finalizers: meta.finalizers,
      ownerReferences: [controllerRefTo(owner)],
    },
    spec: t.spec,
  };
  return pod;
}
