// Metadata-only views: PartialObjectMetadata and PartialObjectMetadataList. Only metadata
// travels; a list keeps its own list metadata and each item names its kind, as Kubernetes does.

import type { KubeList, KubeObject, ListMeta } from '../api/object.ts';

export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: string;
  metadata: KubeObject['metadata'];
}

export interface PartialObjectMetadataList {
  kind: 'PartialObjectMetadataList';
  apiVersion: string;
  metadata: ListMeta;
  items: PartialObjectMetadata[];
}

/** `apiVersion` is the view's: `meta.k8s.io/v1` (or the `meta.orch.io` spelling asked for) */
export function toPartialObjectMetadata(obj: KubeObject, apiVersion: string): PartialObjectMetadata {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata ?? {} };
}

function listMeta(meta: ListMeta | undefined): ListMeta {
  const out: ListMeta = {};
  if (meta?.resourceVersion !== undefined) out.resourceVersion = meta.resourceVersion;
  if (meta?.continue) out.continue = meta.continue;
  if (meta?.remainingItemCount !== undefined) out.remainingItemCount = meta.remainingItemCount;
  return out;
}

export function toPartialObjectMetadataList(list: KubeList, apiVersion: string): PartialObjectMetadataList {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion,
    metadata: listMeta(list.metadata),
    items: list.items.map(i => toPartialObjectMetadata(i, apiVersion)),
  };
}
