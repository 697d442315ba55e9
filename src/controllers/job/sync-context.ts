// What one Job sync works with: the API calls it may make (effects, so tests run it without a
// server), the controller's memory between syncs, and the state one sync builds up.

import type { BackoffRecord } from './backoff.ts';
import type { Condition } from './conditions.ts';
import type { Intervals } from './indexes.ts';
import type { Job, Pod } from './pods.ts';

export interface JobEffects {
  now(): number;
  /** creates a pod; throws when the API refuses */
  createPod(pod: Pod): Promise<void>;
  /** deletes a pod (already gone counts as done) */
  deletePod(pod: Pod): Promise<void>;
  /** removes the tracking finalizer (a pod already gone counts as done) */
  removeFinalizer(pod: Pod): Promise<void>;
  /** writes the job's status; returns the job as stored */
  updateStatus(job: Job): Promise<Job>;
  event(type: 'Normal' | 'Warning', reason: string, message: string): void;
  /** asks for another sync of this job after ms */
  requeueAfter(ms: number): void;
}

export interface JobSyncState {
  /** every pod creation and deletion asked for earlier has been seen */
  satisfiedExpectations: boolean;
  /** pods whose finalizer removal was asked for and not yet seen */
  expectedRmFinalizers: Set<string>;
  backoff?: BackoffRecord;
}

export interface Ctx {
  job: Job;
  pods: Pod[];
  active: Pod[];
  ready: number;
  terminating: number;
  succeeded: number;
  uncountedSucceeded: Set<string>;
  uncountedFailed: Set<string>;
  expectedRm: Set<string>;
  prevSucceededIndexes: Intervals;
  succeededIndexes: Intervals;
  failedIndexes?: Intervals;
  delayedDeletion: Map<number, Pod>;
  finished?: Condition;
  backoff: BackoffRecord;
}

export const uidOf = (p: Pod) => String(p.metadata.uid);
export const completionsOf = (job: Job) => job.spec.completions ?? 0;
export const validIndex = (job: Job, ix: number) => ix >= 0 && ix < completionsOf(job);
