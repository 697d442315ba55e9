// Writing ControllerRevisions through the API: creation that resolves name collisions as
// Kubernetes' history does (an existing revision with other data bumps the collision count and
// the name is hashed again), renumbering a revision rolled back to, and pruning.

import { isAlreadyExists, isNotFound } from '../../client/api-error.ts';
import type { LabelSelector } from '../../api/selectors/label.ts';
import type { Client } from '../../client/rest.ts';
import { adoptPatch, claimOf, strategicMergePatch, type Owner } from '../owner-refs.ts';
import { equalRevision, newRevision, type NewRevision, type Revision } from './revisions.ts';

const path = (ns: string | undefined, name?: string) => `/apis/apps/v1/namespaces/${encodeURIComponent(ns ?? 'default')}/controllerrevisions${name ? `/${encodeURIComponent(name)}` : ''}`;

/** the revision created (or found equal under its name) and the collision count it took */
export async function createRevision(client: Client, spec: NewRevision, hashFor?: (collisionCount: number) => string): Promise<{ revision: Revision; collisionCount: number }> {
  let collisionCount = spec.collisionCount ?? 0;
  for (;;) {
    const rev = newRevision({ ...spec, collisionCount, hash: hashFor?.(collisionCount) ?? spec.hash });
    try {
      return { revision: await client.create<Revision>(path(rev.metadata.namespace), rev), collisionCount };
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      const existing = await client.get<Revision>(path(rev.metadata.namespace, rev.metadata.name));
      const ours = existing.metadata.ownerReferences?.some(r => r.uid === spec.owner.metadata.uid);
      if (ours && equalRevision(existing, rev)) return { revision: existing, collisionCount };
      collisionCount++;
    }
  }
}

export async function renumberRevision(client: Client, rev: Revision, revision: number): Promise<Revision> {
  if (rev.revision === revision) return rev;
  return client.patch<Revision>(path(rev.metadata.namespace, rev.metadata.name), { revision });
}

export async function deleteRevision(client: Client, rev: Revision): Promise<void> {
  try { await client.delete(path(rev.metadata.namespace, rev.metadata.name)); } catch (err) { if (!isNotFound(err)) throw err; }
}

/**
 * The owner's revisions: those it controls that its selector still matches, and orphans the
 * selector matches, adopted (after `kubectl delete --cascade=orphan` and a new owner of the same
 * template, the pods keep their revision and are not replaced).
 */
export async function ownedRevisions(client: Client, owner: Owner, selector: LabelSelector, inNamespace: Revision[]): Promise<Revision[]> {
  const out: Revision[] = [];
  for (const r of inNamespace) {
    const claim = claimOf(owner, selector, r);
    if (claim === 'keep') out.push(r);
    else if (claim === 'adopt') {
      try { out.push(await client.patch<Revision>(path(r.metadata.namespace, r.metadata.name), adoptPatch(owner, r.metadata.uid), strategicMergePatch)); } catch (err) { if (!isNotFound(err)) throw err; }
    }
  }
  return out;
}
