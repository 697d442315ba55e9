// What a delete asks of the garbage collector, as kube-apiserver's generic store decides it: the
// `orphan` or `foregroundDeletion` finalizer the object carries while its dependents are
// orphaned or deleted first. The request's orphanDependents or propagationPolicy wins, then a
// finalizer the object already has, then the resource's default policy.

import type { ResourceInfo } from '../schema/types.ts';

export const orphanFinalizer = 'orphan';
export const foregroundFinalizer = 'foregroundDeletion';

/** Kubernetes' rest.GarbageCollectionPolicy values */
export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

export interface PropagationRequest {
  propagationPolicy?: string;
  /** the deprecated boolean form */
  orphanDependents?: boolean;
}

// resources whose older versions kept their dependents when deleted, as before server-side
// garbage collection existed; Kubernetes keeps that default for those versions only
const orphanByDefault: Record<string, string[]> = {
  'replicationcontrollers': ['v1'],
  'jobs.batch': ['v1'],
  'cronjobs.batch': ['v1beta1'],
  'deployments.apps': ['v1beta1', 'v1beta2'],
  'replicasets.apps': ['v1beta2'],
  'statefulsets.apps': ['v1beta1', 'v1beta2'],
  'daemonsets.apps': ['v1beta2'],
  'deployments.extensions': ['v1beta1'],
  'replicasets.extensions': ['v1beta1'],
  'daemonsets.extensions': ['v1beta1'],
};

/** the policy a delete of this resource (in the version the request names) follows when it names none */
export function defaultGarbageCollectionPolicy(info: Pick<ResourceInfo, 'group' | 'version' | 'resource'>): GarbageCollectionPolicy {
  const key = info.group ? `${info.resource}.${info.group}` : info.resource;
  return orphanByDefault[key]?.includes(info.version) ? 'OrphanDependents' : 'DeleteDependents';
}

function shouldOrphan(finalizers: string[], req: PropagationRequest, policy: GarbageCollectionPolicy): boolean {
  if (policy === 'Unsupported') return false;
  if (req.orphanDependents !== undefined) return req.orphanDependents;
  if (req.propagationPolicy === 'Orphan') return true;
  if (req.propagationPolicy === 'Background' || req.propagationPolicy === 'Foreground') return false;
  for (const f of finalizers) {
    if (f === orphanFinalizer) return true;
    if (f === foregroundFinalizer) return false;
  }
  return policy === 'OrphanDependents';
}

function shouldDeleteDependentsFirst(finalizers: string[], req: PropagationRequest, policy: GarbageCollectionPolicy): boolean {
  if (policy === 'Unsupported') return false;
  if (req.orphanDependents !== undefined) return false;
  if (req.propagationPolicy === 'Foreground') return true;
  if (req.propagationPolicy === 'Background' || req.propagationPolicy === 'Orphan') return false;
  for (const f of finalizers) {
    if (f === foregroundFinalizer) return true;
    if (f === orphanFinalizer) return false;
  }
  return false;
}

/**
 * the object's finalizers after a delete with these options: the two garbage-collection
 * finalizers removed, then the one the request (or the object, or the default) calls for added
 * at the end; `changed` is false when the set is the same, and then `finalizers` is the old list
 */
export function deletionFinalizers(current: string[] | undefined, req: PropagationRequest, policy: GarbageCollectionPolicy): { changed: boolean; finalizers: string[] } {
  const old = current ?? [];
  const next = old.filter(f => f !== orphanFinalizer && f !== foregroundFinalizer);
  if (shouldOrphan(old, req, policy)) next.push(orphanFinalizer);
  if (shouldDeleteDependentsFirst(old, req, policy)) next.push(foregroundFinalizer);
  const a = new Set(old);
  const b = new Set(next);
  const same = a.size === b.size && [...a].every(f => b.has(f));
  return same ? { changed: false, finalizers: old } : { changed: true, finalizers: next };
}

/** kube-apiserver's warning when a Job is deleted without saying what becomes of its pods */
export function defaultPropagationWarning(info: Pick<ResourceInfo, 'group' | 'version' | 'resource'>, req: PropagationRequest): string | undefined {
  if (info.group !== 'batch' || info.resource !== 'jobs') return undefined;
  if (req.propagationPolicy !== undefined || req.orphanDependents !== undefined) return undefined;
  if (defaultGarbageCollectionPolicy(info) !== 'OrphanDependents') return undefined;
  return 'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning';
}
