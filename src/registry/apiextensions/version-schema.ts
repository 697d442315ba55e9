// Where a custom resource write meets its CRD version's schema: one compiled set of hooks per
// served version's `schema.openAPIV3Schema`, cached per schema object. Pruning and defaulting
// (schema/structural) on every write; validation of the schema's types, formats and list types,
// then, when those pass, the x-kubernetes-validations rules (CEL, loaded only for a schema that
// has rules), as apiextensions-apiserver orders them.

import type { FieldError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import { defaultCustomResource, pruneCustomResource, validateCustomResource, validateCustomResourceUpdate, type JSONSchemaProps } from '../../schema/structural/index.ts';
import { cel } from '../../schema/cel/on-demand.ts';
import type { RuleSchema } from '../../schema/cel/index.ts';
import { hasCelRules } from './crd-schemas.ts';

export interface VersionSchemaHooks {
  /** drops fields the schema does not know (unless it preserves them); mutates obj */
  prune(obj: KubeObject): void;
  /**
   * fills the schema's defaults; mutates obj. Called on every write; Kubernetes also defaults
   * objects read from storage, which nothing here does yet (the read path has no hook)
   */
  applyDefaults(obj: KubeObject): void;
  /** the schema's checks of a create (old absent) or update, as 422 field errors */
  validate(obj: KubeObject, old: KubeObject | undefined): FieldError[];
}

const unchecked: VersionSchemaHooks = {
  prune() {},
  applyDefaults() {},
  validate() { return []; },
};

/** obj's own fields replaced by those of `next` (the structural functions return copies) */
function replaceWith(obj: KubeObject, next: KubeObject): void {
  for (const key of Object.keys(obj)) delete (obj as Record<string, unknown>)[key];
  Object.assign(obj, next);
}

function compile(schema: JSONSchemaProps): VersionSchemaHooks {
  const rules = hasCelRules(schema);
  return {
    prune(obj) { replaceWith(obj, pruneCustomResource(schema, obj).object); },
    applyDefaults(obj) { replaceWith(obj, defaultCustomResource(schema, obj)); },
    validate(obj, old) {
      const errs = old ? validateCustomResourceUpdate(schema, obj, old) : validateCustomResource(schema, obj);
      if (errs.length || !rules) return errs;
      return cel().validateCelRules(schema as RuleSchema, obj, old);
    },
  };
}

const compiled = new WeakMap<object, VersionSchemaHooks>();

/** the hooks of one version's schema (no schema: nothing is checked, as a CRD without one) */
export function versionSchemaHooks(schema: unknown): VersionSchemaHooks {
  if (schema === null || typeof schema !== 'object') return unchecked;
  let hooks = compiled.get(schema);
  if (!hooks) compiled.set(schema, hooks = compile(schema as JSONSchemaProps));
  return hooks;
}
