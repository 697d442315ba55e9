// The JSONSchemaProps of apiextensions.k8s.io/v1 as they arrive in a CRD's
// spec.versions[].schema.openAPIV3Schema (plain JSON, no normalisation), and the small path
// helpers the structural-schema checks share.

export interface JSONSchemaProps {
  type?: string;
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  default?: unknown;
  example?: unknown;
  enum?: unknown[];
  pattern?: string;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  properties?: Record<string, JSONSchemaProps>;
  /** a schema, or a boolean (true: anything, false: nothing) */
  additionalProperties?: JSONSchemaProps | boolean;
  /** apiextensions allows only one schema here; an array is refused by CRD validation */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  $ref?: string;
  externalDocs?: { description?: string; url?: string };
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: unknown[];
  [other: string]: unknown;
}

/** the single schema of `items` (a list of schemas is not structural) */
export function itemsSchema(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  const items = s?.items;
  return items && !Array.isArray(items) ? items : undefined;
}

/** the schema of `additionalProperties`, when it is one (true alone says nothing of values) */
export function additionalSchema(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  const ap = s?.additionalProperties;
  return ap && typeof ap === 'object' ? ap : undefined;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** field.Path's Child: `a.b`, or `b` at the root */
export function child(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

/** field.Path's Key: `a[k]` */
export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}

/** field.Path's Index: `a[0]` */
export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}
