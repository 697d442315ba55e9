// Workload controllers' objects (Deployments, ReplicaSets, StatefulSets, DaemonSets,
// ReplicationControllers): server defaults and generation tracking. Jobs and CronJobs are in
// ../batch/jobs.ts.

import { strategyWith, type Strategy } from '../strategy.ts';
import type { KubeObject } from '../../api/object.ts';
import type { AppsV1DaemonSetSpec, AppsV1DeploymentSpec, AppsV1ReplicaSetSpec, AppsV1StatefulSetSpec, CoreV1ReplicationControllerSpec } from '../../schema/generated/types.ts';
import { validateWorkloadSpec, validateWorkloadUpdate } from '../validation/workload.ts';
import { defaultPodTemplate } from '../defaults/pod-spec.ts';
import { templateGenerationOnCreate, templateGenerationOnUpdate } from './daemonset-generation.ts';

/** each workload resource's spec, as its defaults read it */
interface Specs {
  deployments: AppsV1DeploymentSpec;
  replicasets: AppsV1ReplicaSetSpec;
  replicationcontrollers: CoreV1ReplicationControllerSpec;
  statefulsets: AppsV1StatefulSetSpec;
  daemonsets: AppsV1DaemonSetSpec;
}

const defaultsByResource: { [R in keyof Specs]: (s: Specs[R]) => void } = {
  deployments(s) {
    s.replicas ??= 1;
    s.revisionHistoryLimit ??= 10;
    s.progressDeadlineSeconds ??= 600;
    const st = s.strategy ??= { type: 'RollingUpdate' };
    st.type ??= 'RollingUpdate';
    if (st.type === 'RollingUpdate') st.rollingUpdate ??= { maxUnavailable: '25%', maxSurge: '25%' };
    defaultPodTemplate(s.template);
  },
  replicasets(s) { s.replicas ??= 1; defaultPodTemplate(s.template); },
  replicationcontrollers(s) { s.replicas ??= 1; defaultPodTemplate(s.template); },
  statefulsets(s) {
    s.replicas ??= 1;
    s.podManagementPolicy ??= 'OrderedReady';
    s.revisionHistoryLimit ??= 10;
    s.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
    s.persistentVolumeClaimRetentionPolicy ??= { whenDeleted: 'Retain', whenScaled: 'Retain' };
    defaultPodTemplate(s.template);
  },
  daemonsets(s) {
    s.revisionHistoryLimit ??= 10;
    s.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } };
    defaultPodTemplate(s.template);
  },
};

type Workload = KubeObject & { spec?: Specs[keyof Specs] };

export function workloadStrategy(resource: keyof Specs): Strategy {
  // the spec is the resource's own: its defaults take it as their type
  const defaults = defaultsByResource[resource] as (s: Specs[keyof Specs]) => void;
  const specOf = (obj: Workload) => (obj.spec ??= {} as Specs[keyof Specs]);
  return strategyWith<Workload>({
    tracksGeneration: true,
    prepareForCreate(obj) {
      defaults(specOf(obj));
      obj.status = {};
    },
    defaults(obj) { if (obj.spec && typeof obj.spec === 'object') defaults(obj.spec); },
    // set after the writer's fields are recorded, as kube-apiserver's strategy sets it after its
    // handler ran the field manager: the annotation belongs to no manager
    admitCreate(obj) {
      if (resource === 'daemonsets') templateGenerationOnCreate(obj);
    },
    prepareForUpdate(obj, old) {
      defaults(specOf(obj));
      if (resource === 'daemonsets') templateGenerationOnUpdate(obj, old);
    },
    validateCreate: obj => validateWorkloadSpec(resource, obj),
    validateUpdate: (obj, old) => validateWorkloadUpdate(resource, obj, old),
  });
}
