// A StatefulSet's current and update revisions, found or made as Kubernetes'
// getStatefulSetRevisions does: the update revision is the newest if its template is the set's;
// an older equal one is renumbered to the top (a rollback); otherwise a new one is created.

import type { Client } from '../../client/rest.ts';
import { createRevision, renumberRevision } from '../history/history-client.ts';
import { equalRevision, newRevision, nextRevisionNumber, sortRevisions, templatePatch, type Revision } from '../history/revisions.ts';
import type { StatefulSet } from './identity.ts';

const owner = (set: StatefulSet) => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: set.metadata });

export interface SetRevisions { current: Revision; update: Revision; collisionCount: number; sorted: Revision[] }

export async function statefulSetRevisions(client: Client, set: StatefulSet, owned: Revision[]): Promise<SetRevisions> {
  const sorted = sortRevisions(owned);
  let collisionCount = set.status?.collisionCount ?? 0;
  const spec = {
    owner: owner(set),
    labels: set.spec?.template?.metadata?.labels,
    annotations: set.metadata.annotations,
    data: templatePatch(set.spec?.template),
    revision: nextRevisionNumber(sorted),
  };
  const candidate = newRevision({ ...spec, collisionCount });
  const equal = sorted.filter(r => equalRevision(r, candidate));
  let update: Revision;
  if (equal.length && sorted[sorted.length - 1] === equal[equal.length - 1]) update = sorted[sorted.length - 1]!;
  else if (equal.length) update = await renumberRevision(client, equal[equal.length - 1]!, spec.revision);
  else ({ revision: update, collisionCount } = await createRevision(client, { ...spec, collisionCount }));
  const current = sorted.find(r => r.metadata.name === set.status?.currentRevision) ?? update;
  return { current, update, collisionCount, sorted };
}
