// ConfigMaps, Secrets and persistent volume claims (with their volumes) that pods reference, read
// through the API. Standalone agents have no
// API: references to them fail as they would against a cluster that lacks the object.

import { ApiError } from '../../client/api-error.ts';
import type { Client } from '../../client/rest.ts';
import type { CoreV1ConfigMap, CoreV1PersistentVolume, CoreV1PersistentVolumeClaim, CoreV1Secret } from '../../schema/generated/types.ts';
import type { ServiceLike } from './service-env.ts';
import type { ClaimSource } from './volumes/persistent-claim.ts';
import { createTokenManager, type TokenAsk, type IssuedToken } from './volumes/token-manager.ts';

/** a ConfigMap or a Secret: what a pod reads from either */
export type DataObject = Pick<CoreV1ConfigMap, 'data' | 'binaryData'> & Pick<CoreV1Secret, 'stringData'>;

export interface ObjectSource extends ClaimSource {
  /** undefined when the object does not exist */
  get(kind: 'configmaps' | 'secrets', namespace: string, name: string): Promise<DataObject | undefined>;
  /** a service account token bound to the pod (absent: this agent has no API to ask) */
  serviceAccountToken?(ask: TokenAsk): Promise<string>;
  /** the Services of a namespace (absent: this agent has no API to ask) */
  services?(namespace: string): Promise<ServiceLike[]>;
}

export function apiObjectSource(client: Client | undefined): ObjectSource {
  const read = async <T>(path: string): Promise<T | undefined> => {
    if (!client) return undefined;
    try {
      return await client.get<T>(path);
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  };
  const ns = (namespace: string) => `/api/v1/namespaces/${encodeURIComponent(namespace)}`;
  // a namespace's Services read at most once a second: every container start asks (the kubelet
  // reads them from an informer, as current as this)
  const serviceLists = new Map<string, { at: number; list: Promise<ServiceLike[]> }>();
  const services = (c: Client, namespace: string): Promise<ServiceLike[]> => {
    const hit = serviceLists.get(namespace);
    if (hit && Date.now() - hit.at < 1000) return hit.list;
    const list = c.list<{ items: ServiceLike[] }>(`${ns(namespace)}/services`).then(r => r.items);
    list.catch(() => serviceLists.delete(namespace));
    serviceLists.set(namespace, { at: Date.now(), list });
    return list;
  };
  // the TokenRequest the kubelet sends: the pod as bound object, the audience when one is named
  const tokens = client && createTokenManager(async ask => {
    const out = await client.create<{ status: IssuedToken }>(`${ns(ask.namespace)}/serviceaccounts/${encodeURIComponent(ask.serviceAccount)}/token`, {
      apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
      spec: { ...(ask.audiences.length ? { audiences: ask.audiences } : {}), expirationSeconds: ask.expirationSeconds, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: ask.pod.name, uid: ask.pod.uid } },
    });
    return out.status;
  });
  return {
    ...(tokens ? { serviceAccountToken: (ask: TokenAsk) => tokens.token(ask) } : {}),
    ...(client ? { services: (namespace: string) => services(client, namespace) } : {}),
    get: (kind, namespace, name) => read<DataObject>(`${ns(namespace)}/${kind}/${encodeURIComponent(name)}`),
    claim: (namespace, name) => read<CoreV1PersistentVolumeClaim>(`${ns(namespace)}/persistentvolumeclaims/${encodeURIComponent(name)}`),
    volume: name => read<CoreV1PersistentVolume>(`/api/v1/persistentvolumes/${encodeURIComponent(name)}`),
    resolved: new Map(),
  };
}

/** a ConfigMap's or Secret's entries as bytes */
export function objectData(kind: 'configmaps' | 'secrets', obj: DataObject): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(obj.data ?? {})) out.set(k, kind === 'secrets' ? Buffer.from(String(v), 'base64') : Buffer.from(String(v)));
  if (kind === 'configmaps') for (const [k, v] of Object.entries(obj.binaryData ?? {})) out.set(k, Buffer.from(String(v), 'base64'));
  if (kind === 'secrets') for (const [k, v] of Object.entries(obj.stringData ?? {})) out.set(k, Buffer.from(String(v)));
  return out;
}

export const kindWord = (kind: 'configmaps' | 'secrets') => (kind === 'configmaps' ? 'configmap' : 'secret');
