// What the garbage collector does with one object, decided from what it read: its owners
// (each solid, dangling or deleting its dependents first), its dependents, its finalizers.
// Pure functions; garbage-collector.ts reads the API and carries the decisions out.

import type { GraphNode } from './graph.ts';
import { beingDeleted, foregroundFinalizer, hasFinalizer, identityString, orphanFinalizer, type Identity, type ObjectMeta, type OwnerReference } from './identity.ts';

/** solid: the owner is there; dangling: it is not (or is another object by that name); waiting: it deletes its dependents first */
export type Verdict = 'solid' | 'dangling' | 'waiting';

export type Propagation = 'Orphan' | 'Background' | 'Foreground';

export type ItemAction =
  | { kind: 'none' }
  | { kind: 'removeReferences'; uids: string[] }
  | { kind: 'delete'; policy: Propagation; unblockFirst?: boolean };

/** owner undefined: not found */
export function verdictFor(ref: OwnerReference, owner: ObjectMeta | undefined): Verdict {
  if (!owner || owner.uid !== ref.uid) return 'dangling';
  return beingDeleted(owner) && hasFinalizer(owner, foregroundFinalizer) ? 'waiting' : 'solid';
}

/**
 * an object with owner references, given each reference's verdict: kept while a solid owner
 * remains (references to absent or foreground-deleting owners removed), deleted otherwise
 */
export function decideItem(latest: ObjectMeta, verdicts: Array<{ ref: OwnerReference; verdict: Verdict }>, dependents: GraphNode[]): ItemAction {
  const of = (v: Verdict) => verdicts.filter(x => x.verdict === v).map(x => x.ref);
  const solid = of('solid');
  const dangling = of('dangling');
  const waiting = of('waiting');
  if (solid.length) {
    if (!dangling.length && !waiting.length) return { kind: 'none' };
    return { kind: 'removeReferences', uids: [...dangling, ...waiting].map(r => r.uid) };
  }
  if (waiting.length && dependents.length) {
    // an owner waits for this object, which has dependents of its own: they go first. A
    // dependent that is itself deleting its dependents could make a cycle of waits; this
    // object stops blocking its owners before going
    const unblockFirst = dependents.some(d => d.deletingDependents);
    return { kind: 'delete', policy: 'Foreground', unblockFirst };
  }
  // no owner left: collected as its own finalizers ask, else in the background
  const policy: Propagation = hasFinalizer(latest, orphanFinalizer) ? 'Orphan' : hasFinalizer(latest, foregroundFinalizer) ? 'Foreground' : 'Background';
  return { kind: 'delete', policy };
}

/** dependents whose reference to this owner blocks its deletion */
export function blockingDependents(owner: GraphNode): GraphNode[] {
  return [...owner.dependents].filter(d => d.owners.some(r => r.uid === owner.identity.uid && r.blockOwnerDeletion));
}

/** an owner deleting its dependents first: done when none blocks it any more, else the blocking ones are deleted */
export function decideDeletingDependents(owner: GraphNode): { removeFinalizer: true } | { removeFinalizer: false; deleteDependents: GraphNode[] } {
  const blocking = blockingDependents(owner);
  if (!blocking.length) return { removeFinalizer: true };
  return { removeFinalizer: false, deleteDependents: blocking.filter(d => !d.deletingDependents) };
}

/** a merge patch leaving out the references to these owners; the resourceVersion makes it conditional */
export function removeReferencesPatch(meta: ObjectMeta, uids: string[]): object {
  const left = (meta.ownerReferences ?? []).filter(r => !uids.includes(r.uid));
  return { metadata: { ownerReferences: left.length ? left : null, resourceVersion: meta.resourceVersion } };
}

/** a merge patch making every blocking reference non-blocking; the uid makes it apply to this object only */
export function unblockReferencesPatch(meta: ObjectMeta): object {
  const refs = (meta.ownerReferences ?? []).map(r => (r.blockOwnerDeletion ? { ...r, blockOwnerDeletion: false } : r));
  return { metadata: { ownerReferences: refs, uid: meta.uid, resourceVersion: meta.resourceVersion } };
}

/** a merge patch without one finalizer, or undefined when the object does not have it */
export function removeFinalizerPatch(meta: ObjectMeta, finalizer: string): object | undefined {
  const list = meta.finalizers ?? [];
  if (!list.includes(finalizer)) return undefined;
  const left = list.filter(f => f !== finalizer);
  return { metadata: { finalizers: left.length ? left : null, resourceVersion: meta.resourceVersion } };
}

/** the Warning event Kubernetes records on a dependent naming an owner outside its namespace */
export function invalidNamespaceMessage(dependent: Identity, ref: OwnerReference): string {
  const owner: Identity = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: dependent.namespace };
  return `ownerRef ${identityString(owner)} does not exist in namespace ${JSON.stringify(dependent.namespace)}`;
}

export const invalidNamespaceReason = 'OwnerRefInvalidNamespace';
