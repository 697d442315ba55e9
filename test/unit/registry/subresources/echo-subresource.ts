// A throwaway subresource, as a module adding one would be: configmaps/<name>/keys answers the
// names of a ConfigMap's data keys. Registering it is the only other line it needs.

import { ownKind, type Subresource } from '../../../../src/registry/subresources/subresource.ts';

export const keysSubresource: Subresource = {
  name: 'keys',
  verbs: ['get'],
  connect: false,
  servedFor: info => info.group === '' && info.resource === 'configmaps',
  kind: ownKind,
  async get(call) {
    const cm = await call.registry.get(call.info, call.namespace, call.name);
    const keys = Object.keys((cm as { data?: Record<string, string> }).data ?? {}).sort();
    return { type: 'object', code: 200, object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: cm.metadata.name, namespace: cm.metadata.namespace }, data: { keys: keys.join(',') } } };
  },
};
