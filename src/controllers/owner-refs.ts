// Controller references between an owner (a ReplicaSet, a Deployment) and its dependents, and
// which dependents an owner claims: those it controls that its selector still matches, orphans
// its selector matches (adopted), and none it controls that the selector no longer matches
// (released), as Kubernetes' ControllerRefManager decides. Pure, but for the patch bodies it
// hands the caller to send.

import type { LabelSelector } from '../api/selectors/label.ts';
import { matchesLabels } from '../api/selectors/label.ts';
import type { MetaV1ObjectMeta, MetaV1OwnerReference } from '../schema/generated/types.ts';

export interface Owner { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; uid?: string; deletionTimestamp?: string } }
interface Dependent { metadata?: MetaV1ObjectMeta }

export function controllerRefOf(obj: Dependent): MetaV1OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find(r => r.controller);
}

export function isControlledBy(obj: Dependent, ownerUid: string | undefined): boolean {
  return !!ownerUid && controllerRefOf(obj)?.uid === ownerUid;
}

/** the reference an owner puts on what it creates or adopts */
export function controllerRefTo(owner: Owner): MetaV1OwnerReference {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

export type Claim = 'keep' | 'adopt' | 'release' | 'ignore';

/** what the owner does with one candidate dependent */
export function claimOf(owner: Owner, selector: LabelSelector, dep: Dependent): Claim {
  const ref = controllerRefOf(dep);
  const matches = matchesLabels(selector, dep.metadata?.labels);
  const ownerGoing = !!owner.metadata.deletionTimestamp;
  if (ref) {
    if (ref.uid !== owner.metadata.uid) return 'ignore';
    if (matches) return 'keep';
    // an owner being deleted lets the garbage collector deal with what it leaves
    return ownerGoing ? 'ignore' : 'release';
  }
  if (ownerGoing || !matches || dep.metadata?.deletionTimestamp) return 'ignore';
  if ((dep.metadata?.namespace ?? '') !== (owner.metadata.namespace ?? '')) return 'ignore';
  return 'adopt';
}

/**
 * A strategic merge patch adding the controller reference; the dependent's uid in it is a
 * precondition, so a dependent deleted and made again under the same name is not adopted.
 */
export function adoptPatch(owner: Owner, dependentUid: string | undefined): unknown {
  return { metadata: { ownerReferences: [controllerRefTo(owner)], uid: dependentUid } };
}

/** a strategic merge patch removing the owner's reference (merge key uid) */
export function releasePatch(ownerUid: string | undefined, dependentUid: string | undefined): unknown {
  return { metadata: { ownerReferences: [{ $patch: 'delete', uid: ownerUid }], uid: dependentUid } };
}

export const strategicMergePatch = 'application/strategic-merge-patch+json';
