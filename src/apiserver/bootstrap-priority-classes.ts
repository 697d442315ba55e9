// The system PriorityClasses kube-apiserver creates at start (its
// scheduling/bootstrap-system-priority-classes hook): system-node-critical and
// system-cluster-critical, made when missing and otherwise left as they are.

import { StatusError } from '../api/status.ts';
import { systemPriorityClasses } from '../api/priority-classes.ts';
import type { Registry } from '../registry/registry.ts';
import type { Catalog } from '../schema/types.ts';

export async function ensureSystemPriorityClasses(store: Registry, catalog: Catalog): Promise<void> {
  const info = catalog.lookup('scheduling.k8s.io', 'v1', 'priorityclasses');
  if (!info) return;
  for (const pc of systemPriorityClasses) {
    try {
      await store.get(info, undefined, pc.name);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
      await store.create(info, undefined, { metadata: { name: pc.name }, value: pc.value, description: pc.description } as never).catch(e => {
        // another server of the cluster made it meanwhile
        if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
      });
    }
  }
}
