// Workload controllers' objects (Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs,
// CronJobs, ReplicationControllers): server defaults and generation tracking.

import { strategyWith, type Strategy } from '../strategy.ts';
import type { KubeObject } from '../../api/object.ts';
import type { AppsV1DaemonSetSpec, AppsV1DeploymentSpec, AppsV1ReplicaSetSpec, AppsV1StatefulSetSpec, BatchV1CronJobSpec, BatchV1JobSpec, CoreV1ReplicationControllerSpec } from '../../schema/generated/types.ts';
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
  jobs: BatchV1JobSpec;
  cronjobs: BatchV1CronJobSpec;
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
  jobs(s) {
    s.parallelism ??= 1;
    s.backoffLimit ??= 6;
    s.completionMode ??= 'NonIndexed';
    s.suspend ??= false;
    s.podReplacementPolicy ??= 'TerminatingOrFailed';
    if (s.completions === undefined && s.parallelism !== undefined) s.completions = 1;
    defaultPodTemplate(s.template);
    if (s.template?.spec?.restartPolicy === 'Always') s.template.spec.restartPolicy = 'Never';
  },
  cronjobs(s) {
    s.concurrencyPolicy ??= 'Allow';
    s.suspend ??= false;
    s.successfulJobsHistoryLimit ??= 3;
    s.failedJobsHistoryLimit ??= 1;
    if (s.jobTemplate?.spec) defaultsByResource.jobs(s.jobTemplate.spec);
  },
};

type Workload = KubeObject & { spec?: Specs[keyof Specs] };

export function workloadStrategy(resource: keyof Specs): Strategy {
  // the spec is the resource's own: its defaults take it as their type
  const defaults = defaultsByResource[resource] as (s: Specs[keyof Specs]) => void;
  const specOf = (obj: Workload) => (obj.spec ??= {} as Specs[keyof Specs]);
  return strategyWith<Workload>({
    tracksGeneration: true,
    prepareForCreate(obj) { defaults(specOf(obj)); obj.status = {}; },
    // set where kube-apiserver's strategy sets it, after the field manager has recorded the write
    ...(resource === 'daemonsets' ? { admitCreate: templateGenerationOnCreate } : {}),
    prepareForUpdate(obj, old) {
      defaults(specOf(obj));
      if (resource === 'daemonsets') templateGenerationOnUpdate(obj, old);
    },
    validateCreate: obj => validateWorkloadSpec(resource, obj),
    validateUpdate: (obj, old) => validateWorkloadUpdate(resource, obj, old),
  });
}
