// Structural schemas of CustomResourceDefinitions, the pure part of serving custom resources
// as apiextensions-apiserver does. What the CRD registry and custom-resource serving call:
//
// - crdSchemaErrors(schema, 'spec.versions[0].schema', { statusSubresource }) on CRD create and
//   update: Kubernetes' field errors for a schema it would refuse (unsupported keywords,
//   x-kubernetes-* combinations, non-structural schemas, defaults the schema refuses).
// - pruneCustomResource(schema, obj) then defaultCustomResource(schema, obj) on every decode
//   (request bodies and reads from storage); the pruned paths feed fieldValidation=Warn/Strict.
// - validateCustomResource(schema, obj) on create and update, after the registry's metadata and
//   type checks: the schema, embedded resources, set and map lists.

import type { FieldError } from '../../api/status.ts';
import { defaultValueErrors } from './default-values.ts';
import { embeddedResourceErrors } from './embedded.ts';
import { listSetAndMapErrors } from './list-types.ts';
import { schemaRuleErrors, type SchemaRuleOptions } from './schema-rules.ts';
import { structuralSchemaErrors } from './structural.ts';
import type { JSONSchemaProps } from './types.ts';
import { noOld, validateNode } from './validate.ts';

export type { JSONSchemaProps } from './types.ts';
export type { SchemaRuleOptions } from './schema-rules.ts';
export { structuralSchemaErrors } from './structural.ts';
export { schemaRuleErrors } from './schema-rules.ts';
export { defaultCustomResource, defaultInPlace, schemaHasDefaults } from './defaulting.ts';
export { pruneCustomResource, unknownFieldMessage, type PruneResult } from './pruning.ts';
export { customResourceFinalizerWarnings, validateCustomResourceTypeMeta } from './resource-meta.ts';

/**
 * Everything apiextensions-apiserver says of a version's schema (`versionPath` is the version's
 * path, e.g. `spec.versions[0].schema`): the keyword and extension rules, and, when those pass,
 * the structural-schema errors under `<versionPath>.openAPIV3Schema`.
 */
export function crdSchemaErrors(schema: JSONSchemaProps, versionPath: string, opts: SchemaRuleOptions = {}): FieldError[] {
  const rules = schemaRuleErrors(schema, versionPath, opts);
  const structural = structuralSchemaErrors(schema, `${versionPath}.openAPIV3Schema`);
  // defaults are judged only by a structural schema
  const defaults = structural.length === 0 ? defaultValueErrors(schema, `${versionPath}.openAPIV3Schema`) : [];
  return [...rules, ...structural, ...defaults];
}

/**
 * The field errors of a custom resource (the whole object, metadata included) against its
 * version's openAPIV3Schema, in Kubernetes' words: the OpenAPI value validation, then the
 * embedded resources' apiVersion, kind and metadata, then set and map lists' duplicates.
 * The resource's own metadata, apiVersion and kind are the registry's to check.
 */
export function validateCustomResource(schema: JSONSchemaProps | undefined, object: unknown): FieldError[] {
  if (!schema) return [];
  return [...validateNode(schema, object, ''), ...embeddedResourceErrors(schema, object), ...listSetAndMapErrors(schema, object)];
}

/**
 * The same on update, with Kubernetes' ratcheting: errors of values left unchanged from `old`
 * are dropped, and set/map duplicates only count when the old object had none.
 */
export function validateCustomResourceUpdate(schema: JSONSchemaProps | undefined, object: unknown, old: unknown): FieldError[] {
  if (!schema) return [];
  const lists = listSetAndMapErrors(schema, old).length === 0 ? listSetAndMapErrors(schema, object) : [];
  return [...validateNode(schema, object, '', old), ...embeddedResourceErrors(schema, object), ...lists];
}

/**
 * A write through the status subresource validates `status` alone against the schema's status
 * property (errors under `status`), ratcheted against the old status when there is one.
 */
export function validateCustomResourceStatus(schema: JSONSchemaProps | undefined, status: unknown, oldStatus: unknown = noOld): FieldError[] {
  const s = schema?.properties?.status;
  if (!s) return [];
  return validateNode(s, status, '', oldStatus).map(e => ({ ...e, field: e.field === '<nil>' ? 'status' : `status.${e.field}` }));
}
