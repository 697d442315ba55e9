// What differs per resource. The generic store runs one pipeline for every resource and
// asks the strategy only at these points; most resources use the default strategy.

import type { FieldError } from '../api/status.ts';
import type { NameRule } from '../api/names.ts';
import type { KubeObject } from '../api/object.ts';
import type { ResourceInfo } from '../schema/types.ts';

/** who asks for a write (the authenticated user), for strategies that record it (CSRs' spec.username) */
export interface Requester {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export interface StrategyContext {
  info: ResourceInfo;
  /** the requester, when the write comes through the API */
  user?: Requester;
  now: Date;
  random: () => number;
  /** look up live objects of another resource (e.g. services read each other's cluster IPs) */
  listOther?: (group: string, resource: string) => Promise<KubeObject[]>;
}

export interface DeleteDecision {
  /** seconds of graceful deletion; 0 deletes at once (finalizers permitting) */
  gracePeriodSeconds: number;
}

/**
 * `T`: the resource's objects as its strategy reads them (decoded and checked against its schema,
 * so a generated type describes them); the generic store hands every strategy a KubeObject.
 */
export interface Strategy<T extends KubeObject = KubeObject> {
  nameRule: NameRule;
  /** spec changes bump metadata.generation */
  tracksGeneration: boolean;
  /** PUT of an absent object creates it */
  allowCreateOnUpdate: boolean;
  /** a delete answers with the deleted object instead of a Success Status */
  returnDeletedObject: boolean;
  /**
   * a new object keeps the status it was created with although a status subresource exists
   * (nodes: the agent registers its node with its status)
   */
  keepsStatusOnCreate?: boolean;
  /** server defaults and server-owned fields for a new object (mutates obj) */
  prepareForCreate(obj: T, ctx: StrategyContext): void | Promise<void>;
  /**
   * the defaults alone, as Kubernetes' scheme applies them when it decodes an object (mutates
   * obj; no server-owned fields, nothing allocated): the admission chain gives them to what a
   * mutating webhook or policy changed, before the next one sees it
   */
  defaults?(obj: T): void;
  /**
   * what Kubernetes' mutating admission plugins set on a new object (mutates obj); it runs after
   * the write is recorded in managedFields, as admission runs after the field manager there, so
   * the fields it sets belong to no manager
   */
  admitCreate?(obj: T, ctx: StrategyContext): void | Promise<void>;
  /** carry server-owned fields over on an update of the main resource (mutates obj); subresources with writes of their own replace it */
  prepareForUpdate(obj: T, old: T, ctx: StrategyContext): void;
  /** a resource whose status writes keep more than the spec (CSRs keep their approval conditions); mutates obj */
  prepareForStatusUpdate?(obj: T, old: T, ctx: StrategyContext): void;
  /** the checks of a write through status, when they differ from validateUpdate */
  validateStatusUpdate?(obj: T, old: T, ctx: StrategyContext): FieldError[];
  validateCreate(obj: T, ctx: StrategyContext): FieldError[];
  validateUpdate(obj: T, old: T, ctx: StrategyContext): FieldError[];
  /** finalizers that keep a deleted object in storage (namespaces add spec.finalizers) */
  finalizersOf(obj: T): string[];
  /** changes made when the object is first marked for deletion (mutates obj) */
  markDeleting(obj: T): void;
  /** how a delete proceeds for this object */
  deleteDecision(obj: T, requestedGrace: number | undefined): DeleteDecision;
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
};

/** a strategy whose hooks read the resource's objects as `T`; the store calls it with any KubeObject of that resource */
export function strategyWith<T extends KubeObject = KubeObject>(overrides: Partial<Strategy<T>>): Strategy {
  return { ...defaultStrategy, ...overrides } as Strategy;
}
