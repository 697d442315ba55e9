// What an established CustomResourceDefinition serves: one catalog entry per served version,
// under the names its status accepted (never the requested ones, which may conflict), as
// kube-apiserver's CRD handler serves it. Every version shares one storage key space; objects
// are stored in the storage version and only their apiVersion differs between versions
// (conversion strategy None).

import type { ResourceInfo, SubresourceInfo } from '../../schema/types.ts';
import { type Crd, isConditionTrue, storageVersionOf } from './crd-types.ts';

// the order kube-apiserver lists a custom resource's verbs in discovery
const verbs = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

export function servedResources(crd: Crd): ResourceInfo[] {
  if (!isConditionTrue(crd, 'Established')) return [];
  const names = crd.status?.acceptedNames;
  if (!names?.plural || !names.kind) return [];
  const group = crd.spec.group;
  const storageVersion = storageVersionOf(crd) ?? crd.spec.versions[0]?.name ?? '';
  const terminating = isConditionTrue(crd, 'Terminating');
  const versionSchemas = Object.fromEntries(crd.spec.versions.filter(v => v.schema?.openAPIV3Schema !== undefined).map(v => [v.name, v.schema!.openAPIV3Schema]));
  return crd.spec.versions.filter(v => v.served).map(v => {
    const subresources: SubresourceInfo[] = [];
    if (v.subresources?.status) subresources.push({ name: 'status', kind: names.kind, group, version: v.name, verbs: ['get', 'patch', 'update'] });
    if (v.subresources?.scale) subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] });
    const scale = v.subresources?.scale;
    return {
      group,
      version: v.name,
      resource: names.plural,
      singular: names.singular || names.kind.toLowerCase(),
      kind: names.kind,
      listKind: names.listKind || `${names.kind}List`,
      namespaced: crd.spec.scope === 'Namespaced',
      verbs: [...verbs],
      shortNames: [...(names.shortNames ?? [])],
      categories: [...(names.categories ?? [])],
      subresources,
      // no OpenAPI definition of the server's own: schema checks go through `custom.schema`
      definition: '',
      storageVersion,
      custom: {
        crd: crd.metadata.name!,
        terminating,
        ...(v.deprecated ? { deprecationWarning: v.deprecationWarning ?? `${group}/${v.name} ${names.kind} is deprecated` } : {}),
        ...(scale ? { scale: { specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath, ...(scale.labelSelectorPath ? { labelSelectorPath: scale.labelSelectorPath } : {}) } } : {}),
        ...(v.schema?.openAPIV3Schema !== undefined ? { schema: v.schema.openAPIV3Schema } : {}),
        ...(v.additionalPrinterColumns?.length ? { printerColumns: v.additionalPrinterColumns } : {}),
        ...(v.selectableFields?.length ? { selectableFields: v.selectableFields.map(f => f.jsonPath.replace(/^\./, '')) } : {}),
        versionSchemas,
      },
    };
  });
}
