// Writing ControllerRevisions through the API: creation that resolves name collisions as
// Kubernetes' history does (an existing revision with other data bumps the collision count and
// the name is hashed again), renumbering a revision rolled back to, and pruning.

import { isAlreadyExists, isNotFound } from '../../client/api-error.ts';
import type { Client } from '../../client/rest.ts';
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
