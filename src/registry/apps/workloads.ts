// Workload controllers' objects (Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs,
// CronJobs, ReplicationControllers): server defaults and generation tracking.

import { strategyWith, type Strategy } from '../strategy.ts';
import { isObject, type KubeObject } from '../../api/object.ts';
import { validateWorkloadSpec, validateWorkloadUpdate } from '../validation/workload.ts';
import { defaultPodTemplate } from '../defaults/pod-spec.ts';

type Obj = Record<string, unknown>;

function specOf(obj: KubeObject): Obj {
  if (!isObject(obj.spec)) obj.spec = {};
  return obj.spec as Obj;
}

const defaultsByResource: Record<string, (s: Obj) => void> = {
  deployments(s) {
    s.replicas ??= 1;
    s.revisionHistoryLimit ??= 10;
    s.progressDeadlineSeconds ??= 600;
    if (!isObject(s.strategy)) s.strategy = { type: 'RollingUpdate' };
    const st = s.strategy as Obj;
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
    const t = s.template as Obj | undefined;
    if (isObject(t) && isObject(t.spec) && t.spec.restartPolicy === 'Always') t.spec.restartPolicy = 'Never';
  },
  cronjobs(s) {
    s.concurrencyPolicy ??= 'Allow';
    s.suspend ??= false;
    s.successfulJobsHistoryLimit ??= 3;
    s.failedJobsHistoryLimit ??= 1;
    const jt = s.jobTemplate;
    if (isObject(jt) && isObject(jt.spec)) defaultsByResource.jobs!(jt.spec);
  },
};

export function workloadStrategy(resource: string): Strategy {
  const defaults = defaultsByResource[resource] ?? (() => {});
  return strategyWith({
    tracksGeneration: true,
    prepareForCreate(obj) { defaults(specOf(obj)); obj.status = {}; },
    prepareForUpdate(obj) { defaults(specOf(obj)); },
    validateCreate: obj => validateWorkloadSpec(resource, obj),
    validateUpdate: (obj, old) => validateWorkloadUpdate(resource, obj, old),
  });
}
