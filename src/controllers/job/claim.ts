// Which pods a Job owns, as client-go's PodControllerRefManager decides it: pods it controls
// and still selects are kept; pods it controls but no longer selects are released (unless the
// job is being deleted); pods nobody controls that it selects are adopted (unless either is
// being deleted), with the tracking finalizer; pods another controller owns are not its own.

import { labelSelectorFromObject, matchesLabels } from '../../api/selectors/label.ts';
import { trackingFinalizer, type Job, type Pod } from './pods.ts';

export type Claim = 'keep' | 'adopt' | 'release' | 'ignore';

export function claimPod(job: Job, pod: Pod): Claim {
  const ref = (pod.metadata.ownerReferences ?? []).find(r => r.controller);
  let selects = false;
  try {
    const sel = labelSelectorFromObject(job.spec.selector);
    selects = !sel.empty && matchesLabels(sel, pod.metadata.labels ?? {});
  } catch { selects = false; }
  if (ref) {
    if (ref.uid !== job.metadata.uid) return 'ignore';
    if (selects || job.metadata.deletionTimestamp || pod.metadata.deletionTimestamp) return 'keep';
    return 'release';
  }
  if (!selects || job.metadata.deletionTimestamp || pod.metadata.deletionTimestamp) return 'ignore';
  return 'adopt';
}

/** the strategic merge patch that makes the job the pod's controller and tracks it */
export function adoptPatch(job: Job, pod: Pod): unknown {
  return {
    metadata: {
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name, uid: job.metadata.uid, controller: true, blockOwnerDeletion: true }],
      uid: pod.metadata.uid,
      finalizers: [trackingFinalizer],
    },
  };
}

/** the strategic merge patch that drops the job's reference from the pod */
export function releasePatch(job: Job, pod: Pod): unknown {
  return { metadata: { ownerReferences: [{ $patch: 'delete', uid: job.metadata.uid }], uid: pod.metadata.uid } };
}
