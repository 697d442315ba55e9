// The OpenAPI definitions of one served version of a CustomResourceDefinition, as
// apiextensions-apiserver's builder makes them: the kind from the version's structural schema
// with apiVersion, kind and metadata (a reference to ObjectMeta) added, embedded resources given
// the same, x-kubernetes-group-version-kind and the selectable fields; and its list kind. Named
// by the group reversed (widgets.example.com/v1 Widget → com.example.v1.Widget).

import type { JSONSchemaProps } from '../structural/types.ts';
import { publishedSchema, toOpenAPIV2, withoutDefaults } from './published-schema.ts';

type Json = Record<string, unknown>;

export interface CrdVersionModel {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  schema?: JSONSchemaProps;
  /** the version's selectableFields as field selector labels (`spec.color`; a leading dot is dropped) */
  selectableFields?: string[];
}

const conventions = 'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md';
const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** the definition name of a custom kind: the group's labels reversed, then version and kind */
export function crdDefinitionName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

const refTo = (name: string, v2: boolean) => `${v2 ? '#/definitions/' : '#/components/schemas/'}${name}`;

// TypeMeta's fields as the generated Kubernetes definitions describe them
const typeMeta = {
  apiVersion: { description: `APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${conventions}#resources`, type: 'string' },
  kind: { description: `Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${conventions}#types-kinds`, type: 'string' },
};
const embeddedTypeMeta = {
  apiVersion: { description: `apiVersion defines the versioned schema of this representation of an object. More info: ${conventions}#resources`, type: 'string' },
  kind: { description: `kind is a string value representing the type of this object. In CamelCase. More info: ${conventions}#types-kinds`, type: 'string' },
};
const objectMeta = (v2: boolean): Json => ({ description: `Standard object's metadata. More info: ${conventions}#metadata`, $ref: refTo(`${meta}.ObjectMeta`, v2) });

/** Go writes a map's keys sorted; so do we, which also keeps the documents' hashes stable */
function sortedProperties(s: Json): Json {
  const props = s.properties as Record<string, Json> | undefined;
  if (!props) return s;
  return { ...s, properties: Object.fromEntries(Object.keys(props).sort().map(k => [k, props[k]])) };
}

function withProperties(s: Json, add: Record<string, unknown>): Json {
  return sortedProperties({ ...s, properties: { ...(s.properties as Json | undefined), ...add } });
}

/** addEmbeddedProperties: every x-kubernetes-embedded-resource object gets TypeMeta and ObjectMeta */
function embedded(s: Json, v2: boolean): Json {
  let out: Json = { ...s };
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties as Record<string, Json>).map(([k, v]) => [k, embedded(v, v2)]));
  if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) out.items = embedded(out.items as Json, v2);
  if (out.additionalProperties && typeof out.additionalProperties === 'object') out.additionalProperties = embedded(out.additionalProperties as Json, v2);
  // in v2 such a value is left open: kubectl would refuse every unknown field beside the metadata
  if (v2 && out['x-kubernetes-preserve-unknown-fields'] === true) return out;
  if (out['x-kubernetes-embedded-resource'] !== true) return sortedProperties(out);
  out = withProperties(out, { ...embeddedTypeMeta, metadata: objectMeta(v2) });
  const required = [...((out.required as string[] | undefined) ?? [])];
  if (!required.includes('kind')) required.push('kind');
  if (!required.includes('apiVersion')) required.push('apiVersion');
  out.required = required;
  return out;
}

function selectable(m: CrdVersionModel): Json {
  if (!m.selectableFields?.length) return {};
  return { 'x-kubernetes-selectable-fields': m.selectableFields.map(p => ({ fieldPath: p.replace(/^\./, '') })) };
}

function kindSchema(m: CrdVersionModel, v2: boolean): Json {
  const gvk = { 'x-kubernetes-group-version-kind': [{ group: m.group, kind: m.kind, version: m.version }] };
  const schema = m.schema;
  // no properties at all where kubectl's v2 reader would take them as the only ones allowed
  if (!schema || (v2 && schema['x-kubernetes-preserve-unknown-fields'] === true)) return { type: 'object', ...gvk, ...selectable(m) };
  let s = publishedSchema(schema);
  if (v2) s = withoutDefaults(toOpenAPIV2(s));
  s = withProperties(s, { metadata: objectMeta(v2), ...typeMeta });
  return { ...embedded(s, v2), ...gvk, ...selectable(m) };
}

function listSchema(m: CrdVersionModel, v2: boolean): Json {
  return {
    description: `${m.listKind} is a list of ${m.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: typeMeta.apiVersion,
      items: { description: `List of ${m.plural}. More info: ${conventions}`, type: 'array', items: { $ref: refTo(crdDefinitionName(m.group, m.version, m.kind), v2) } },
      kind: typeMeta.kind,
      metadata: { description: `Standard list metadata. More info: ${conventions}#types-kinds`, $ref: refTo(`${meta}.ListMeta`, v2) },
    },
    'x-kubernetes-group-version-kind': [{ group: m.group, kind: m.listKind, version: m.version }],
    ...selectable(m),
  };
}

/** the kind's and the list kind's definitions, for the Swagger 2.0 document (v2) or OpenAPI 3.0 */
export function crdDefinitions(m: CrdVersionModel, v2: boolean): Record<string, Json> {
  return {
    [crdDefinitionName(m.group, m.version, m.kind)]: kindSchema(m, v2),
    [crdDefinitionName(m.group, m.version, m.listKind)]: listSchema(m, v2),
  };
}
