// The root CA certificate publisher: a `kube-root-ca.crt` ConfigMap in every active namespace
// holding the cluster CA (ca.crt), so that pods can verify the API server through the service
// IP or kubernetes.default.svc. Made again when deleted; its data and description are put back
// when changed, other fields (labels, further annotations) left as users set them.

import type { Logger } from '../../api/log.ts';
import { jsonEqual } from '../../api/object.ts';
import type { Client } from '../../client/rest.ts';
import type { InformerFactory } from '../informer-factory.ts';
import { startPerNamespaceController } from './per-namespace.ts';

export const rootCAConfigMapName = 'kube-root-ca.crt';
export const descriptionAnnotation = 'kubernetes.io/description';
export const description = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. '
  + 'No other usage is guaranteed across distributions of Kubernetes clusters.';

interface ConfigMap { metadata: { name: string; namespace?: string; annotations?: Record<string, string>; [k: string]: any }; data?: Record<string, string>; [k: string]: any }

/** the ConfigMap put right: the CA as its only data and the description present; undefined when right */
export function correctedRootCA(cm: ConfigMap, rootCA: string): ConfigMap | undefined {
  const data = { 'ca.crt': rootCA };
  if (jsonEqual(cm.data ?? {}, data) && cm.metadata.annotations?.[descriptionAnnotation]) return undefined;
  return { ...cm, data, metadata: { ...cm.metadata, annotations: { ...cm.metadata.annotations, [descriptionAnnotation]: description } } };
}

export function startRootCAPublisher(client: Client, log: Logger, informers: InformerFactory, rootCA: string): { stop(): void } {
  return startPerNamespaceController<ConfigMap>(client, log, informers, {
    resource: 'configmaps',
    name: rootCAConfigMapName,
    fresh: () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: rootCAConfigMapName, annotations: { [descriptionAnnotation]: description } }, data: { 'ca.crt': rootCA } }),
    corrected: cm => correctedRootCA(cm, rootCA),
  });
}
