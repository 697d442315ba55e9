// What a subresource is to the rest of the server. Kubernetes gives each subresource its own
// REST storage; here each is one module that declares its verbs and kinds and does its work
// through the registry, registered once in `table.ts`. The router, the handlers, discovery and
// OpenAPI learn subresources only from that table.

import type { FieldError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { ResourceInfo } from '../../schema/types.ts';
import type { Strategy, StrategyContext } from '../strategy.ts';
import type { Registry } from '../registry.ts';
import type { TokenService } from './token-service.ts';

export type SubresourceVerb = 'get' | 'create' | 'update' | 'patch' | 'delete';

/** a kind a subresource takes or returns */
export interface BodyKind {
  group: string;
  version: string;
  kind: string;
  /** its OpenAPI definition; absent when the body is not an object (plain text, a stream) */
  definition?: string;
}

/** a query parameter of a subresource, as OpenAPI publishes it */
export interface QueryParameter { name: string; type: 'string' | 'boolean' | 'integer' }

/** one request to a subresource, as the handlers hand it over */
export interface SubresourceCall {
  registry: Registry;
  info: ResourceInfo;
  namespace: string | undefined;
  name: string;
  query: URLSearchParams;
  dryRun: boolean;
  /** the field manager the write is recorded under */
  manager?: string;
  now(): Date;
  /** another served resource, by group, version and plural */
  lookup(group: string, version: string, resource: string): ResourceInfo | undefined;
  /** the service account token signer (serviceaccounts/token); absent: tokens cannot be issued */
  tokens?: TokenService;
}

/**
 * Where a proxy subresource sends a request (kube-apiserver's ResourceLocation): the backend's
 * scheme, host and port, and whether it is a node agent, reached with the API server's client
 * certificate. The API server relays the request there (`apiserver/proxy/`).
 */
export interface ProxyLocation {
  scheme: 'http' | 'https';
  host: string;
  /** absent: the scheme's default port */
  port?: string;
  nodeAgent: boolean;
}

export type SubresourceResult =
  | { type: 'object'; code: number; object: KubeObject }
  /** bytes fetched from a node agent and passed through as they come ('' for none: 204 No Content) */
  | { type: 'stream'; url: string; contentType: string };

/**
 * A subresource whose body is a view of the stored object (status, scale): GET answers the view,
 * PUT and PATCH change the object through it.
 */
export interface ObjectView {
  /** the view of a stored object (absent: the object itself) */
  read?(info: ResourceInfo, obj: KubeObject): KubeObject;
  /**
   * the object to store once `view` was written (absent: the body is the object itself, and the
   * generic store keeps what the subresource may not change, through `writes`)
   */
  write?(info: ResourceInfo, current: KubeObject, view: KubeObject): KubeObject;
  /** server-side apply is accepted */
  apply: boolean;
}

/** how the generic store treats an update made through the subresource (its own strategy, in Kubernetes' terms) */
export interface SubresourceWrites {
  /** the object to store: what a write through the subresource may change from `obj`, the rest from `current` */
  prepare(obj: KubeObject, current: KubeObject, strategy: Strategy, ctx: StrategyContext): KubeObject;
  validate(obj: KubeObject, current: KubeObject, strategy: Strategy, ctx: StrategyContext): FieldError[];
}

export interface Subresource {
  name: string;
  /** verbs it answers, in discovery's (alphabetical) order */
  verbs: readonly SubresourceVerb[];
  /** a streaming subresource that upgrades or proxies the connection (exec, attach, portforward, proxy) */
  connect: boolean;
  /**
   * the resources it is on; absent: every resource Kubernetes gives it (the catalog lists it)
   */
  servedFor?(info: ResourceInfo): boolean;
  /** the kind of its request and response bodies on `info` */
  kind(info: ResourceInfo): BodyKind;
  /** what GET answers and the bodies it produces (absent: objects of `kind`) */
  produces?: readonly string[];
  /** query parameters of GET, as OpenAPI lists them */
  getParameters?: readonly QueryParameter[];
  /** the fields a write through it may own in managedFields (absent: those of the main resource) */
  ownedFields?: ReadonlyArray<readonly string[]>;
  view?: ObjectView;
  writes?: SubresourceWrites;
  get?(call: SubresourceCall): Promise<SubresourceResult>;
  create?(call: SubresourceCall, body: KubeObject): Promise<SubresourceResult>;
  /**
   * a connect subresource whose upgraded connection (exec, attach, portforward) is relayed as it
   * is to a node agent: checks the request and answers the agent's URL for it
   */
  upgradeTarget?(call: SubresourceCall): Promise<{ url: string }>;
  /** a proxy: where a request to `call.name` (`name`, `name:port`, `scheme:name:port`) goes, for every method */
  proxyLocation?(call: SubresourceCall): Promise<ProxyLocation>;
}

/** the body kind of a subresource whose body is the resource's own kind */
export function ownKind(info: ResourceInfo): BodyKind {
  return { group: info.group, version: info.version, kind: info.kind, definition: info.definition };
}
