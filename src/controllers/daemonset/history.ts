// A DaemonSet's revisions, as Kubernetes' constructHistory keeps them: the revision whose
// template is the set's is current (renumbered to the top if it is an older one, a rollback),
// or a new one is made, named and labelled by the template's hash.

import type { Client } from '../../client/rest.ts';
import { createRevision, renumberRevision } from '../history/history-client.ts';
import { revisionHash, revisionHashLabel, sortRevisions, templatePatch, equalRevision, newRevision, type Revision } from '../history/revisions.ts';
import type { DaemonSet } from './placement.ts';

export interface DaemonHistory { current: Revision; hash: string; old: Revision[]; collisionCount: number }

export async function daemonSetHistory(client: Client, ds: DaemonSet, owned: Revision[]): Promise<DaemonHistory> {
  const sorted = sortRevisions(owned);
  const collision = ds.status?.collisionCount ?? 0;
  const spec = {
    owner: { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: ds.metadata },
    labels: ds.spec?.template?.metadata?.labels,
    annotations: ds.metadata.annotations,
    data: templatePatch(ds.spec?.template),
    revision: 0,
  };
  const probe = newRevision({ ...spec, hash: 'x' });
  const matching = sorted.filter(r => equalRevision(r, probe));
  const old = sorted.filter(r => !matching.includes(r));
  const next = (old.length ? Math.max(...old.map(r => r.revision)) : 0) + 1;
  let current: Revision;
  let collisionCount = collision;
  if (matching.length) {
    current = matching[matching.length - 1]!;
    old.push(...matching.slice(0, -1));
    if (current.revision < next) current = await renumberRevision(client, current, next);
  } else {
    ({ revision: current, collisionCount } = await createRevision(client, { ...spec, revision: next, collisionCount: collision }, c => revisionHash(ds.spec?.template ?? {}, c)));
  }
  const hash = current.metadata.labels?.[revisionHashLabel] ?? current.metadata.name.slice(ds.metadata.name.length + 1);
  return { current, hash, old, collisionCount };
}
