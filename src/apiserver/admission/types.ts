// What an admission plugin sees of a request and what it is given to decide with. Plugins are
// Kubernetes' built-in admission controllers by their Kubernetes names; the chain (chain.ts)
// runs every enabled one, mutating phase first, then validating, at the points kube-apiserver
// runs them (see request.ts).

import type { KubeObject } from '../../api/object.ts';
import type { FeatureGates } from '../../api/feature-gates.ts';
import type { Logger } from '../../api/log.ts';
import type { Catalog, ResourceInfo } from '../../schema/types.ts';
import type { Registry } from '../../registry/registry.ts';
import type { Authorizer } from '../authz/attributes.ts';
import type { User } from '../user.ts';
import type { ReinvocationContext } from './reinvocation.ts';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  operation: AdmissionOperation;
  resource: ResourceInfo;
  /** '' when none */
  subresource: string;
  /** '' for cluster-scoped resources */
  namespace: string;
  /** '' when none or not yet known (a create with generateName) */
  name: string;
  /** the new object (mutable by mutating plugins); CONNECT: the options object (PodExecOptions, ...) */
  object?: KubeObject;
  /** UPDATE and DELETE: the stored object */
  oldObject?: KubeObject;
  /** CreateOptions / UpdateOptions / DeleteOptions / PatchOptions */
  options?: KubeObject;
  user: User;
  dryRun: boolean;
  /** a Warning header (299 "-" "text") on the response */
  warn(text: string): void;
  /** an audit annotation (key/value) kept with the request */
  annotate(key: string, value: string): void;
  /** the mutating phase's reinvocation state, set by the chain (absent: a plugin called alone) */
  reinvocation?: ReinvocationContext;
}

export interface AdmissionPlugin {
  /** Kubernetes' plugin name */
  readonly name: string;
  /**
   * the plugin writes something besides the object (a namespace it creates, ...): the chain
   * skips it on dry runs. Plugins that only must not persist on a dry run (quota) leave this
   * unset and read `dryRun` themselves.
   */
  readonly sideEffects?: boolean;
  /** mutating phase; may change `object`; throw a StatusError to refuse */
  admit?(a: AdmissionAttributes): void | Promise<void>;
  /** validating phase; throw a StatusError to refuse */
  validate?(a: AdmissionAttributes): void | Promise<void>;
}

/** what plugins are given at construction: reads through the registry, the authorizer, the clock */
export interface AdmissionDeps {
  registry: Registry;
  catalog: Catalog;
  /** the server's authorizer chain (absent: every request is allowed) */
  authorizer?: Authorizer;
  now(): Date;
  random(): number;
  features?: FeatureGates;
  log?: Logger;
  /** each plugin's configuration from --admission-control-config-file, by plugin name */
  pluginConfig?: Readonly<Record<string, unknown>>;
}

export type PluginFactory = (deps: AdmissionDeps) => AdmissionPlugin;
