// Where objects live in storage. All served versions of one group+resource share a key space,
// so an object created through one version is read (and name-clashes) through every other.

import type { ResourceInfo } from '../schema/types.ts';

export const registryPrefix = '/registry/';

export function resourcePrefix(info: Pick<ResourceInfo, 'group' | 'resource'>): string {
  return registryPrefix + (info.group ? `${info.resource}.${info.group}` : info.resource) + '/';
}

/** prefix of every object in one namespace (or of all objects of a cluster-scoped resource) */
export function collectionPrefix(info: Pick<ResourceInfo, 'group' | 'resource' | 'namespaced'>, namespace: string | undefined): string {
  const base = resourcePrefix(info);
  return info.namespaced && namespace ? `${base}${namespace}/` : base;
}

export function objectKey(info: Pick<ResourceInfo, 'group' | 'resource' | 'namespaced'>, namespace: string | undefined, name: string): string {
  return info.namespaced ? `${resourcePrefix(info)}${namespace}/${name}` : `${resourcePrefix(info)}${name}`;
}
