// THE SEAM where a custom resource write meets its CRD version's schema. One compiled set of
// hooks per served version's `schema.openAPIV3Schema`, cached per schema object. Structural
// validation, defaulting and pruning (crdschema) and x-kubernetes-validations rules (crdcel)
// plug in here; until they do, a write is taken as it comes (no checks, nothing pruned).

import type { FieldError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';

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

/** how a version schema becomes hooks; replaced by the schema modules as they land */
export type VersionSchemaCompiler = (schema: unknown) => VersionSchemaHooks;

let compiler: VersionSchemaCompiler = () => unchecked;
const compiled = new WeakMap<object, VersionSchemaHooks>();

/** installs the compiler of version schemas (the schema modules call this once, at load) */
export function setVersionSchemaCompiler(next: VersionSchemaCompiler): void {
  compiler = next;
}

/** the hooks of one version's schema (no schema: nothing is checked, as a CRD without one) */
export function versionSchemaHooks(schema: unknown): VersionSchemaHooks {
  if (schema === null || typeof schema !== 'object') return unchecked;
  let hooks = compiled.get(schema);
  if (!hooks) compiled.set(schema, hooks = compiler(schema));
  return hooks;
}
