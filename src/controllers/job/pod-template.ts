// The pod a Job creates: its template with the tracking finalizer and the job as controller,
// and for Indexed jobs the completion index (annotation, label, JOB_COMPLETION_INDEX from the
// label through the downward API), the hostname <job>-<index>, the name prefix <job>-<index>-,
// and with backoffLimitPerIndex the failure counts carried over from the pod it replaces.

import type { CoreV1Container } from '../../schema/generated/types.ts';
import { matchPodFailurePolicy } from './policies.ts';
import { indexFailureCount, indexIgnoredFailureCount } from './backoff.ts';
import { completionIndexKey, hasBackoffLimitPerIndex, indexFailureCountKey, indexIgnoredFailureCountKey, trackingFinalizer, type Job, type Pod } from './pods.ts';

/** names made from a prefix keep five characters for the random suffix */
const maxGeneratedNameLength = 58;

function withIndexEnv(c: CoreV1Container): CoreV1Container {
  if ((c.env ?? []).some(e => e.name === 'JOB_COMPLETION_INDEX')) return c;
  return { ...c, env: [...(c.env ?? []), { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.labels['${completionIndexKey}']` } } }] };
}

export function indexedGenerateName(jobName: string, index: number): string {
  const suffix = `-${index}-`;
  const prefix = jobName + suffix;
  return prefix.length > maxGeneratedNameLength ? jobName.slice(0, maxGeneratedNameLength - suffix.length) + suffix : prefix;
}

/** the failure counts a replacement pod of an index starts with */
export function replacementFailureCounts(job: Job, replaced: Pod | undefined): { failed: number; ignored: number } {
  if (!replaced) return { failed: 0, ignored: 0 };
  let failed = indexFailureCount(replaced), ignored = indexIgnoredFailureCount(replaced);
  if (job.spec.podFailurePolicy && !matchPodFailurePolicy(job.spec.podFailurePolicy, replaced).countFailed) ignored++;
  else failed++;
  return { failed, ignored };
}

export function podForJob(job: Job, index: number | undefined, replaced?: Pod): Pod {
  const t = structuredClone(job.spec.template ?? {});
  const meta = { ...(t.metadata ?? {}) };
  const spec = t.spec ?? { containers: [] };
  const labels = { ...(meta.labels ?? {}) };
  const annotations = { ...(meta.annotations ?? {}) };
  let generateName = `${job.metadata.name}-`;
  if (index !== undefined) {
    annotations[completionIndexKey] = String(index);
    labels[completionIndexKey] = String(index);
    spec.initContainers = spec.initContainers?.map(withIndexEnv);
    spec.containers = (spec.containers ?? []).map(withIndexEnv);
    spec.hostname = `${job.metadata.name}-${index}`;
    generateName = indexedGenerateName(job.metadata.name!, index);
    if (hasBackoffLimitPerIndex(job)) {
      const counts = replacementFailureCounts(job, replaced);
      annotations[indexFailureCountKey] = String(counts.failed);
      if (counts.ignored > 0) annotations[indexIgnoredFailureCountKey] = String(counts.ignored);
    }
  }
  const finalizers = meta.finalizers?.includes(trackingFinalizer) ? meta.finalizers : [...(meta.finalizers ?? []), trackingFinalizer];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName,
      namespace: job.metadata.namespace,
      labels,
      ...(Object.keys(annotations).length ? { annotations } : {}),
      finalizers,
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name!, uid: job.metadata.uid!, controller: true, blockOwnerDeletion: true }],
    },
    spec,
  };
}
