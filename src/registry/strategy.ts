// What differs per resource. The generic store runs one pipeline for every resource and
// asks the strategy only at these points; most resources use the default strategy.

import type { FieldError } from '../api/status.ts';
import type { NameRule } from '../api/names.ts';
import type { KubeObject } from '../api/object.ts';
import type { ResourceInfo } from '../schema/types.ts';

export interface StrategyContext {
  info: ResourceInfo;
  now: Date;
  random: () => number;
  /** look up live objects of another resource (e.g. services read each other's cluster IPs) */
  listOther?: (group: string, resource: string) => Promise<KubeObject[]>;
}

export interface DeleteDecision {
  /** seconds of graceful deletion; 0 deletes at once (finalizers permitting) */
  gracePeriodSeconds: number;
}

export interface Strategy {
  nameRule: NameRule;
  /** spec changes bump metadata.generation */
  tracksGeneration: boolean;
  /** PUT of an absent object creates it */
  allowCreateOnUpdate: boolean;
  /** a delete answers with the deleted object instead of a Success Status */
  returnDeletedObject: boolean;
  /** server defaults and server-owned fields for a new object (mutates obj) */
  prepareForCreate(obj: KubeObject, ctx: StrategyContext): void | Promise<void>;
  /**
   * what Kubernetes' mutating admission plugins set on a new object (mutates obj); it runs after
   * the write is recorded in managedFields, as admission runs after the field manager there, so
   * the fields it sets belong to no manager
   */
  admitCreate?(obj: KubeObject, ctx: StrategyContext): void;
  /** carry server-owned fields over on an update of the main resource (mutates obj); subresources with writes of their own replace it */
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
  validateCreate(obj: KubeObject, ctx: StrategyContext): FieldError[];
  validateUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  /** finalizers that keep a deleted object in storage (namespaces add spec.finalizers) */
  finalizersOf(obj: KubeObject): string[];
  /** changes made when the object is first marked for deletion (mutates obj) */
  markDeleting(obj: KubeObject): void;
  /** refuses deletes that may never happen (system namespaces); throws a StatusError */
  checkDelete(obj: KubeObject): void;
  /** how a delete proceeds for this object */
  deleteDecision(obj: KubeObject, requestedGrace: number | undefined): DeleteDecision;
}

export const defaultStrategy: Strategy = {
  nameRule: 'subdomain',
  tracksGeneration: false,
  allowCreateOnUpdate: false,
  returnDeletedObject: false,
  prepareForCreate() {},
  prepareForUpdate() {},
  validateCreate() { return []; },
  validateUpdate() { return []; },
  deleteDecision() { return { gracePeriodSeconds: 0 }; },
  finalizersOf(obj) { return obj.metadata.finalizers ?? []; },
  markDeleting() {},
  checkDelete() {},
};

export function strategyWith(overrides: Partial<Strategy>): Strategy {
  return { ...defaultStrategy, ...overrides };
}
