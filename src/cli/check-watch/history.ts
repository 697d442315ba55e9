// What a watch-consistency run records, as plain data: the writes the writers were told
// succeeded (with the resourceVersion the server answered), the names whose last write has an
// unknown outcome, and each watcher's log of lists, events and bookmarks in arrival order.
// The verdict (verdict.ts) is computed from these alone, so it can be fed synthetic histories.

export type WriteOp = 'create' | 'update' | 'delete';

/** a create or update the server answered 2xx to */
export interface AckedWrite {
  name: string;
  op: 'create' | 'update';
  resourceVersion: string;
  /** the counter the write stored (data.counter) */
  counter: number;
}

export interface Outcomes {
  acked: AckedWrite[];
  /** names whose delete was answered 2xx */
  ackedDeletes: Set<string>;
  /** names whose last write failed in a way that leaves its outcome unknown, by that write's kind */
  uncertain: Map<string, WriteOp>;
}

export interface ObjectState {
  name: string;
  resourceVersion: string;
  counter?: number;
}

export type LogEntry =
  | { kind: 'list'; resourceVersion: string; items: ObjectState[] }
  | { kind: 'event'; type: 'ADDED' | 'MODIFIED' | 'DELETED'; name: string; resourceVersion: string; counter?: number }
  | { kind: 'bookmark'; resourceVersion: string };

export interface WatcherLog {
  id: number;
  /** the first entry is the list the watcher started from; later lists are re-lists after 410 */
  entries: LogEntry[];
}

export interface FinalList {
  resourceVersion: string;
  items: ObjectState[];
}

export type ViolationKind =
  | 'missed' | 'duplicate' | 'order' | 'unacknowledged' | 'content' | 'final-state' | 'not-caught-up'
  | 'lost-write' | 'resurrected';

export interface Violation {
  kind: ViolationKind;
  /** the watcher it concerns; absent for storage-level findings (lost or resurrected writes) */
  watcher?: number;
  message: string;
}

export function emptyOutcomes(): Outcomes {
  return { acked: [], ackedDeletes: new Set(), uncertain: new Map() };
}

/**
 * resourceVersions as numbers. Kubernetes calls them opaque, but every server this checks
 * (etcd's revisions, orch's) hands out increasing decimal integers, and the order is what a
 * watch promises; anything else is reported rather than guessed at.
 */
export function rvNumber(rv: string): bigint {
  if (!/^\d+$/.test(rv)) throw new Error(`resourceVersion ${JSON.stringify(rv)} is not a decimal integer; the order of events cannot be checked`);
  return BigInt(rv);
}
