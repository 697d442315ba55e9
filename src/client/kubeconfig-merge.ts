// Merging a cluster's kubeconfig into a user's (~/.kube/config), as `kind` and `k3d` do: the
// cluster, its user and a context under one name replace any earlier entries of that name, the
// rest of the file is kept, and the context becomes the current one.

import { yamlLibrary } from '../api/yaml-library.ts';

type Fields = Record<string, unknown>;
interface Named { name?: unknown; [k: string]: unknown }

const list = (v: unknown): Named[] => (Array.isArray(v) ? (v as Named[]) : []);

/** `existing` with the current context of `incoming` added as `name` (its user as `<name>-admin`) */
export function mergeKubeconfig(existing: string, incoming: string, name: string): string {
  const into = ((existing.trim() ? yamlLibrary().parse(existing) : undefined) ?? { apiVersion: 'v1', kind: 'Config', preferences: {} }) as Fields;
  const from = yamlLibrary().parse(incoming) as Fields;
  const ctx = list(from['contexts']).find(c => c.name === from['current-context'])?.['context'] as Fields | undefined;
  const cluster = list(from['clusters']).find(c => c.name === ctx?.['cluster'])?.['cluster'];
  const user = list(from['users']).find(u => u.name === ctx?.['user'])?.['user'];
  if (!ctx || !cluster || !user) throw new Error('the kubeconfig to merge has no complete current context');
  const userName = `${name}-admin`;
  const put = (field: string, entryName: string, value: Named) => {
    into[field] = [...list(into[field]).filter(e => e.name !== entryName), value];
  };
  put('clusters', name, { name, cluster });
  put('users', userName, { name: userName, user });
  put('contexts', name, { name, context: { cluster: name, user: userName } });
  into['current-context'] = name;
  return yamlLibrary().stringify(into, { lineWidth: 0 });
}
