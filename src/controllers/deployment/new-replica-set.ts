// The ReplicaSet a Deployment creates for its current template: named `<deployment>-<hash>`,
// the hash label added to its labels, selector and template, owned by the Deployment, sized by
// the rollout's rules and annotated with the next revision. Pure.

import { deepClone } from '../../api/object.ts';
import type { AppsV1ReplicaSet } from '../../schema/generated/types.ts';
import { controllerRefTo } from '../owner-refs.ts';
import { setNewReplicaSetAnnotations } from './annotations.ts';
import { newRSNewReplicas } from './rollout-math.ts';
import { computeTemplateHash, templateHashLabel, templateWithHash } from './template-hash.ts';
import type { DeploymentLike, ReplicaSetLike } from './types.ts';

export function newReplicaSetFor(d: DeploymentLike, oldRSs: ReplicaSetLike[], revision: number): ReplicaSetLike {
  const hash = computeTemplateHash(d.spec?.template, d.status?.collisionCount);
  const template = templateWithHash(d.spec?.template, hash);
  const selector = deepClone(d.spec?.selector ?? {});
  selector.matchLabels = { ...selector.matchLabels, [templateHashLabel]: hash };
  const rs: AppsV1ReplicaSet & ReplicaSetLike = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name}-${hash}`,
      namespace: d.metadata.namespace,
      ownerReferences: [controllerRefTo({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: d.metadata })],
      labels: { ...template.metadata?.labels },
    },
    spec: { replicas: 0, minReadySeconds: d.spec?.minReadySeconds, selector, template },
  };
  rs.spec!.replicas = newRSNewReplicas(d, [...oldRSs, rs], rs);
  setNewReplicaSetAnnotations(d, rs, revision, false);
  return rs;
}
