// The replicas the controllers of a budget's pods want, summed once per controller: a pod's
// ReplicaSet (or the Deployment that controls it), ReplicationController or StatefulSet, read
// through the API as the disruption controller's finders read them, and any other kind through its
// /scale subresource. Pods without a controller are reported as unmanaged; a controller that
// cannot be found fails the sync, in Kubernetes' words.

import { isNotFound } from '../../client/api-error.ts';
import type { Client } from '../../client/rest.ts';
import type { Pod } from '../endpoints/pod-endpoint.ts';
import { ScaleTargets } from '../scale-targets.ts';

interface Ref { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }
interface Scalable { metadata: { uid?: string; ownerReferences?: Ref[] }; spec?: { replicas?: number } }

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0]! : '');
export const controllerOf = (o: { metadata: { ownerReferences?: Ref[] } }) => o.metadata.ownerReferences?.find(r => r.controller);

const collections: Record<string, { groups: string[]; path: (ns: string) => string }> = {
  ReplicaSet: { groups: ['apps', 'extensions'], path: ns => `/apis/apps/v1/namespaces/${ns}/replicasets` },
  Deployment: { groups: ['apps', 'extensions'], path: ns => `/apis/apps/v1/namespaces/${ns}/deployments` },
  ReplicationController: { groups: [''], path: ns => `/api/v1/namespaces/${ns}/replicationcontrollers` },
  StatefulSet: { groups: ['apps'], path: ns => `/apis/apps/v1/namespaces/${ns}/statefulsets` },
};

export interface ExpectedScale { expected: number; unmanaged: string[] }

export async function expectedScale(client: Client, namespace: string, pods: Pod[], targets = new ScaleTargets(client)): Promise<ExpectedScale> {
  const ns = encodeURIComponent(namespace);
  /** another kind's replicas from its /scale (custom resources with a scale subresource) */
  const viaScale = async (ref: Ref): Promise<{ uid: string; replicas: number } | undefined> => {
    try {
      const { scale } = await targets.get(namespace, ref);
      return scale.metadata.uid === ref.uid ? { uid: ref.uid, replicas: scale.spec?.replicas ?? 0 } : undefined;
    } catch (err) {
      if (isNotFound(err) || /^no matches for kind/.test((err as Error).message)) return undefined;
      throw err;
    }
  };
  /** the object a reference names, if it exists with that uid */
  const read = async (ref: Ref): Promise<Scalable | undefined> => {
    const c = collections[ref.kind];
    if (!c || !c.groups.includes(groupOf(ref.apiVersion))) return undefined;
    try {
      const o = await client.get<Scalable>(`${c.path(ns)}/${encodeURIComponent(ref.name)}`);
      return o.metadata.uid === ref.uid ? o : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  };
  /** the controller whose scale counts for a pod controlled by `ref`: a Deployment over its ReplicaSet */
  const resolve = async (ref: Ref): Promise<{ uid: string; replicas: number } | undefined> => {
    if (!collections[ref.kind]) return viaScale(ref);
    const o = await read(ref);
    if (!o) return undefined;
    const up = ref.kind === 'ReplicaSet' ? controllerOf(o) : undefined;
    if (up?.kind === 'Deployment') {
      const d = await read(up);
      return d ? { uid: up.uid, replicas: d.spec?.replicas ?? 1 } : undefined;
    }
    return { uid: ref.uid, replicas: o.spec?.replicas ?? 1 };
  };

  const scales = new Map<string, number>();
  const resolved = new Set<string>();
  const unmanaged: string[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod as { metadata: { ownerReferences?: Ref[] } });
    if (!ref) { unmanaged.push(pod.metadata.name); continue; }
    if (resolved.has(ref.uid)) continue;
    const found = await resolve(ref);
    if (!found) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata.name)}`);
    resolved.add(ref.uid);
    scales.set(found.uid, found.replicas);
  }
  let expected = 0;
  for (const n of scales.values()) expected += n;
  return { expected, unmanaged };
}
