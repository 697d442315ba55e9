// The dependency graph the garbage collector keeps from what its informers see: a node per uid
// (owners named by dependents but not seen yet are "virtual" nodes until an informer or a lookup
// settles them), edges from owner references. Changes arrive one at a time and say which nodes
// need another look: dependents whose owner went, owners deleting their dependents first, owners
// orphaning theirs. No I/O here: what to look at goes to the sink.

import { AbsentOwnerCache } from './absent-owners.ts';
import {
  beingDeleted, foregroundFinalizer, hasFinalizer, identityLess, identityKey, orphanFinalizer, ownerIdentity,
  referenceMatches, sameIdentity, type Identity, type ObjectMeta, type OwnerReference,
} from './identity.ts';

export interface GraphNode {
  identity: Identity;
  owners: OwnerReference[];
  dependents: Set<GraphNode>;
  beingDeleted: boolean;
  /** being deleted with the foregroundDeletion finalizer: its dependents go first */
  deletingDependents: boolean;
  /** seen through an informer (false: only named by dependents so far) */
  observed: boolean;
}

export interface GraphSink {
  attemptToDelete(node: GraphNode): void;
  attemptToOrphan(node: GraphNode): void;
  /** a dependent names an owner that lives in another namespace (or is namespaced while it is not) */
  invalidNamespace(dependent: GraphNode, ownerUid: string): void;
}

export type ChangeType = 'add' | 'update' | 'delete';

export class DependencyGraph {
  readonly nodes = new Map<string, GraphNode>();
  readonly absentOwners = new AbsentOwnerCache();
  private readonly sink: GraphSink;

  constructor(sink: GraphSink) { this.sink = sink; }

  get(uid: string): GraphNode | undefined { return this.nodes.get(uid); }

  /** an informer's event: `identity` from the resource watched and the object's metadata */
  observe(type: ChangeType, identity: Identity, meta: ObjectMeta, oldMeta?: ObjectMeta): void {
    let existing = this.nodes.get(identity.uid);
    if (existing && !existing.observed) {
      if (!sameIdentity(identity, existing.identity)) {
        // dependents that named this owner otherwise (another namespace, kind or version) are checked again
        const [, mismatched] = partitionDependents(existing.dependents, identity);
        for (const dep of mismatched) {
          if (identity.namespace && dep.identity.namespace !== identity.namespace) this.sink.invalidNamespace(dep, identity.uid);
          this.sink.attemptToDelete(dep);
        }
        existing.identity = identity;
      }
      existing.observed = true;
    }
    if (type === 'delete') return this.removed(identity, false);
    const owners = meta.ownerReferences ?? [];
    if (!existing) {
      existing = {
        identity, owners, dependents: new Set(), observed: true,
        beingDeleted: beingDeleted(meta), deletingDependents: beingDeleted(meta) && hasFinalizer(meta, foregroundFinalizer),
      };
      this.nodes.set(identity.uid, existing);
      this.addToOwners(existing, owners);
    } else {
      const { added, removed, changed } = referenceDiffs(existing.owners, owners);
      if (added.length || removed.length || changed.length) {
        // a dependent no longer blocking its owner may let the owner's foreground deletion finish
        for (const ref of removed) if (ref.blockOwnerDeletion) this.enqueueByUid(ref.uid);
        for (const [before, after] of changed) if (before.blockOwnerDeletion && !after.blockOwnerDeletion) this.enqueueByUid(after.uid);
        existing.owners = owners;
        this.addToOwners(existing, added);
        this.removeFromOwners(existing, removed);
      }
      if (beingDeleted(meta)) existing.beingDeleted = true;
    }
    this.transitions(existing, meta, oldMeta);
  }

  /**
   * a lookup found no object with this identity (an owner named by dependents, or an item that
   * went while nobody watched): handled as a delete the informers did not see
   */
  virtualDelete(identity: Identity): void {
    this.removed(identity, true);
  }

  private removed(identity: Identity, virtual: boolean): void {
    const existing = this.nodes.get(identity.uid);
    if (!existing) return;
    if (virtual) {
      const [matching, mismatched] = partitionDependents(existing.dependents, identity);
      if (!existing.observed) {
        if (mismatched.length) {
          // dependents disagree on who this owner is: those that named the absent identity are
          // checked, and the node tries the next identity named
          if (matching.length) {
            this.absentOwners.add(identity);
            for (const dep of matching) this.sink.attemptToDelete(dep);
          }
          if (sameIdentity(existing.identity, identity)) {
            const next = alternateOwnerIdentity(mismatched, identity);
            if (next) {
              existing.identity = next;
              this.sink.attemptToDelete(existing);
            }
          }
          return;
        }
      } else if (!sameIdentity(existing.identity, identity)) {
        // the real object is known under other coordinates: only those naming the absent ones lose their owner
        if (matching.length) {
          this.absentOwners.add(identity);
          for (const dep of matching) this.sink.attemptToDelete(dep);
        }
        return;
      }
    }
    this.nodes.delete(existing.identity.uid);
    this.removeFromOwners(existing, existing.owners);
    if (existing.dependents.size) this.absentOwners.add(identity);
    for (const dep of existing.dependents) this.sink.attemptToDelete(dep);
    for (const ref of existing.owners) {
      const owner = this.nodes.get(ref.uid);
      // an owner waiting for its dependents may now have none left
      if (owner?.deletingDependents) this.sink.attemptToDelete(owner);
    }
  }

  private transitions(node: GraphNode, meta: ObjectMeta, oldMeta: ObjectMeta | undefined): void {
    if (startsDeletingWith(orphanFinalizer, meta, oldMeta)) {
      this.sink.attemptToOrphan(node);
      return;
    }
    if (startsDeletingWith(foregroundFinalizer, meta, oldMeta)) {
      node.deletingDependents = true;
      for (const dep of node.dependents) this.sink.attemptToDelete(dep);
      this.sink.attemptToDelete(node);
    }
  }

  private enqueueByUid(uid: string): void {
    const node = this.nodes.get(uid);
    if (node) this.sink.attemptToDelete(node);
  }

  private addToOwners(node: GraphNode, refs: OwnerReference[]): void {
    let suspect = false;
    for (const ref of refs) {
      let owner = this.nodes.get(ref.uid);
      if (!owner) {
        // named but not seen: a virtual node in the dependent's namespace, checked by a lookup
        owner = { identity: ownerIdentity(ref, node.identity.namespace), owners: [], dependents: new Set(), beingDeleted: false, deletingDependents: false, observed: false };
        this.nodes.set(ref.uid, owner);
        owner.dependents.add(node);
        this.sink.attemptToDelete(owner);
        continue;
      }
      owner.dependents.add(node);
      if (suspect) continue;
      const ownerNamespaced = owner.identity.namespace !== '';
      if (ownerNamespaced && owner.identity.namespace !== node.identity.namespace) {
        if (owner.observed) this.sink.invalidNamespace(node, ref.uid);
        suspect = true;
      } else if (!referenceMatches(ref, owner.identity)) {
        suspect = true;
      } else if (!ownerNamespaced && owner.identity.namespace !== node.identity.namespace && !owner.observed) {
        // a virtual cluster-scoped owner may really be a namespaced object named from the wrong place
        suspect = true;
      }
    }
    // the dependent is checked: references that point nowhere make it garbage
    if (suspect) this.sink.attemptToDelete(node);
  }

  private removeFromOwners(node: GraphNode, refs: OwnerReference[]): void {
    for (const ref of refs) this.nodes.get(ref.uid)?.dependents.delete(node);
  }
}

/** deletion began (or was first seen) with this finalizer on the object */
function startsDeletingWith(finalizer: string, meta: ObjectMeta, oldMeta: ObjectMeta | undefined): boolean {
  if (!beingDeleted(meta) || !hasFinalizer(meta, finalizer)) return false;
  return !oldMeta || !beingDeleted(oldMeta) || !hasFinalizer(oldMeta, finalizer);
}

/** dependents whose reference to this uid matches the identity, and those whose reference does not (one may be in both) */
export function partitionDependents(dependents: Iterable<GraphNode>, owner: Identity): [GraphNode[], GraphNode[]] {
  const matching: GraphNode[] = [];
  const mismatched: GraphNode[] = [];
  for (const dep of dependents) {
    let match = false;
    let mismatch = false;
    if (owner.namespace && owner.namespace !== dep.identity.namespace) {
      mismatch = true;
    } else {
      for (const ref of dep.owners) {
        if (ref.uid !== owner.uid) continue;
        if (referenceMatches(ref, owner)) match = true; else mismatch = true;
      }
    }
    if (match) matching.push(dep);
    if (mismatch) mismatched.push(dep);
  }
  return [matching, mismatched];
}

/**
 * another identity the dependents name this uid by: the first after the absent one in a fixed
 * order (else the first), so that trying them in turn ends
 */
export function alternateOwnerIdentity(dependents: GraphNode[], absent: Identity): Identity | undefined {
  const clusterScoped = absent.namespace === '';
  const seen = new Set([identityKey(absent)]);
  let first: Identity | undefined;
  let following: Identity | undefined;
  for (const dep of dependents) {
    for (const ref of dep.owners) {
      if (ref.uid !== absent.uid) continue;
      if (referenceMatches(ref, absent) && (clusterScoped || absent.namespace === dep.identity.namespace)) continue;
      const id = ownerIdentity(ref, dep.identity.namespace);
      // that apiVersion and kind are known to be cluster-scoped
      if (clusterScoped && id.apiVersion === absent.apiVersion && id.kind === absent.kind) id.namespace = '';
      const key = identityKey(id);
      if (seen.has(key)) continue;
      seen.add(key);
      if (!first || identityLess(id, first)) first = id;
      if (identityLess(absent, id) && (!following || identityLess(id, following))) following = id;
    }
  }
  return following ?? first;
}

/** owner references added, removed, and changed (same uid, other fields) */
export function referenceDiffs(old: OwnerReference[], next: OwnerReference[]): { added: OwnerReference[]; removed: OwnerReference[]; changed: Array<[OwnerReference, OwnerReference]> } {
  const before = new Map(old.map(r => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: Array<[OwnerReference, OwnerReference]> = [];
  for (const r of next) {
    const o = before.get(r.uid);
    if (!o) { added.push(r); continue; }
    before.delete(r.uid);
    if (JSON.stringify(normalRef(o)) !== JSON.stringify(normalRef(r))) changed.push([o, r]);
  }
  return { added, removed: [...before.values()], changed };
}

const normalRef = (r: OwnerReference) => [r.apiVersion, r.kind, r.name, r.uid, !!r.controller, !!r.blockOwnerDeletion];
