// Metadata-only views: PartialObjectMetadata and PartialObjectMetadataList.

import type { KubeList, KubeObject } from '../api/object.ts';

export function toPartialObjectMetadata(obj: KubeObject, apiVersion: string): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata };
}

export function toPartialObjectMetadataList(list: KubeList, apiVersion: string): KubeList {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion,
    metadata: list.metadata,
    // items carry no type information of their own, as in Kubernetes
    items: list.items.map(i => ({ metadata: i.metadata })),
  };
}
