// What the API handlers and subresources may ask of the registry: every read, list, watch and
// write of an object, and waiting for a revision. They never see storage.

import type { Requester } from './strategy.ts';
import type { KubeList, KubeObject } from '../api/object.ts';
import type { ResourceInfo } from '../schema/types.ts';
import type { Watcher } from '../storage/interface.ts';

/** what handlers name of storage: a running watch to cancel, and an index a selection can use */
export type { IndexHint, Watcher } from '../storage/interface.ts';
import type { ListOptions, WatchOptions, WatchSink } from './list-watch.ts';

export interface Registry {
  /** `allowStale`: from the watch cache as it is, for checks Kubernetes makes against informers */
  get(info: ResourceInfo, namespace: string | undefined, name: string, revision?: number, allowStale?: boolean): Promise<KubeObject>;
  /** one object as JSON bytes, without decoding it */
  getJson(info: ResourceInfo, namespace: string | undefined, name: string): Promise<Buffer>;
  list(info: ResourceInfo, namespace: string | undefined, opts?: ListOptions): Promise<KubeList>;
  /** an unfiltered list as JSON bytes, without decoding the items */
  listJson(info: ResourceInfo, namespace: string | undefined, opts?: Omit<ListOptions, 'filter' | 'name'>): Promise<Buffer>;
  watch(info: ResourceInfo, namespace: string | undefined, opts: WatchOptions, sink: WatchSink): Promise<Watcher>;
  create(info: ResourceInfo, namespace: string | undefined, body: KubeObject, opts?: WriteOptions): Promise<KubeObject>;
  update(info: ResourceInfo, namespace: string | undefined, name: string, body: KubeObject, opts?: WriteOptions): Promise<{ object: KubeObject; created: boolean }>;
  modify(info: ResourceInfo, namespace: string | undefined, name: string, change: (current: KubeObject) => KubeObject | Promise<KubeObject>, opts?: WriteOptions): Promise<KubeObject>;
  delete(info: ResourceInfo, namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<DeleteResult>;
  /**
   * the unsafe delete: removes an object whose stored bytes do not decode, ignoring finalizers
   * and preconditions; a readable object is refused (422), an absent one is NotFound
   */
  deleteCorrupt(info: ResourceInfo, namespace: string | undefined, name: string): Promise<void>;
  /** a delete of this resource answers with the object rather than a Success Status */
  returnsDeletedObject(info: ResourceInfo): boolean;
  /** the newest revision written */
  currentRevision(): Promise<number>;
  /** resolves once reads see revision `rv`; a 504 Timeout after `waitMs` */
  awaitRevision(rv: number, waitMs?: number): Promise<void>;
}

export interface WriteOptions {
  dryRun?: boolean;
  subresource?: string;
  /** the field manager the write is recorded under in metadata.managedFields */
  manager?: string;
  /** 'Apply': managedFields were already set by server-side apply; anything else records an Update */
  operation?: 'Apply' | 'Update';
  /**
   * a last check of the object about to be written (old: the stored one on updates), run after
   * validation and before storage, dry runs included: admission that needs the requester
   */
  admit?: (obj: KubeObject, old?: KubeObject) => void | Promise<void>;
  /** who asks (strategies that record the requester read it) */
  user?: Requester;
  /** the API server's admission chain for this write (absent: none runs) */
  admission?: WriteAdmission;
}

/**
 * Admission as the generic store calls it, at kube-apiserver's points: `mutate` once the body
 * has its defaults and managedFields, before the system fields are filled (uid,
 * creationTimestamp, a generated name; on updates, carried over from the stored object),
 * `validate` after the strategy's validation and before storage, dry runs included. `old` is
 * absent on creates (an update that creates, an apply that creates, is a create).
 */
export interface WriteAdmission {
  mutate(obj: KubeObject, old: KubeObject | undefined): Promise<void>;
  validate(obj: KubeObject, old: KubeObject | undefined): Promise<void>;
}

export interface DeleteOptions {
  dryRun?: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: string;
  /** the deprecated form of propagationPolicy Orphan (true) or Background (false) */
  orphanDependents?: boolean;
  /** the API server's admission of the delete (both phases), given the stored object; dry runs included */
  admission?: (current: KubeObject) => Promise<void>;
}

export interface DeleteResult {
  object: KubeObject;
  /** removed from storage now (false: graceful deletion or finalizers pending) */
  deleted: boolean;
}
