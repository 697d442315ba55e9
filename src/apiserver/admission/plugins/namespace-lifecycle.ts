// NamespaceLifecycle: nothing is created in a namespace that does not exist (404, the
// namespace's NotFound) or is being deleted (403 with the NamespaceTerminating cause), and the
// namespaces a cluster cannot do without (default, kube-system, kube-public) are never deleted.
// Namespaces themselves, cluster-scoped objects and deletions of anything else always pass.

import { notFound, StatusError } from '../../../api/status.ts';
import type { KubeObject } from '../../../api/object.ts';
import type { ResourceInfo } from '../../../schema/types.ts';
import type { AdmissionAttributes, AdmissionDeps, AdmissionPlugin } from '../types.ts';
import { admissionForbidden } from '../errors.ts';

export const immortalNamespaces: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

const isNamespace = (a: AdmissionAttributes) => a.resource.group === '' && a.resource.resource === 'namespaces';

export function namespaceLifecycle(deps: AdmissionDeps): AdmissionPlugin {
  const nsInfo: ResourceInfo | undefined = deps.catalog.lookup('', 'v1', 'namespaces');
  /** the cache as it is first, as Kubernetes reads its informer; one just created is then read for real */
  async function lookup(name: string): Promise<KubeObject | undefined> {
    for (const allowStale of [true, false]) {
      try {
        return await deps.registry.get(nsInfo!, undefined, name, undefined, allowStale);
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
    }
    return undefined;
  }
  return {
    name: 'NamespaceLifecycle',
    async admit(a) {
      if (a.operation === 'CONNECT') return;
      if (a.operation === 'DELETE' && isNamespace(a) && immortalNamespaces.has(a.name)) {
        throw admissionForbidden(a, 'this namespace may not be deleted');
      }
      if (isNamespace(a) || !a.namespace || a.operation === 'DELETE') return;
      const ns = await lookup(a.namespace);
      if (!ns) throw notFound({ group: '', resource: 'namespaces' }, a.namespace);
      if (a.operation !== 'CREATE' || !terminating(ns)) return;
      const err = admissionForbidden(a, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
      err.status.details = { ...err.status.details, causes: [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }] };
      throw err;
    },
  };
}

/** the phase says so; a namespace marked for deletion whose phase is not written yet is terminating too */
function terminating(ns: KubeObject): boolean {
  return (ns.status as { phase?: string } | undefined)?.phase === 'Terminating' || !!ns.metadata.deletionTimestamp;
}
