// Kubernetes' CEL authorizer library: `authorizer.group(g).resource(r).namespace(ns).name(n)
// .check(verb)`, `.subresource(s)`, `authorizer.path(p).check(verb)`,
// `authorizer.serviceAccount(ns, name)` and `authorizer.requestResource`, each ending in a
// Decision (`allowed()`, `reason()`, `errored()`, `error()`). The checks are asked of a callback
// the caller gives with the bindings (admission passes the server's authorizer chain); CEL
// evaluation is synchronous, so the callback is too.

import { CelScalar, celMethod, type CelFunc } from '@bufbuild/cel';
import { AUTHORIZER, DECISION, GROUP_CHECK, PATH_CHECK, RESOURCE_CHECK, descs, fieldsOf, make } from './types.ts';

const { STRING, BOOL } = CelScalar;

export interface AuthorizationCheck {
  /** a service account the check is made for instead of the requester: "ns:name" */
  serviceAccount?: { namespace: string; name: string };
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

export interface CelAuthorizer {
  check(c: AuthorizationCheck): { decision: 'allow' | 'deny' | 'no-opinion'; reason: string; error?: string };
}

/** the request's own resource, as authorizer.requestResource names it */
export interface RequestResource { group: string; resource: string; subresource: string; namespace: string; name: string }

// authorizers of the evaluations running now, by handle (evaluations are synchronous and short)
const live = new Map<string, CelAuthorizer>();
let next = 0;

/** binds `a` for the length of `fn`, giving `fn` the value of the `authorizer` variable */
export function withAuthorizer<T>(a: CelAuthorizer, request: RequestResource | undefined, fn: (value: unknown) => T): T {
  const handle = String(++next);
  live.set(handle, a);
  try {
    const requestResource = request ? make(descs.resourceCheck, { handle, sa: '', ...request }) : undefined;
    return fn(make(descs.authorizer, { handle, sa: '', requestResource }));
  } finally {
    live.delete(handle);
  }
}

interface Common { handle: string; sa: string }
interface Resource extends Common { group: string; resource: string; subresource: string; namespace: string; name: string }

function decide(from: Common, c: Omit<AuthorizationCheck, 'serviceAccount'>): never {
  const a = live.get(from.handle);
  if (!a) throw new Error('authorizer used outside of its evaluation');
  const [ns, name] = from.sa ? from.sa.split(':') : [];
  let d: ReturnType<CelAuthorizer['check']>;
  try {
    d = a.check({ ...c, ...(from.sa ? { serviceAccount: { namespace: ns!, name: name! } } : {}) });
  } catch (err) {
    d = { decision: 'no-opinion', reason: '', error: (err as Error).message };
  }
  return make(descs.decision, { allowed: d.decision === 'allow', denied: d.decision === 'deny', reason: d.reason, error: d.error ?? '' });
}

function withField(v: unknown, key: keyof Resource, value: string): never {
  return make(descs.resourceCheck, { ...fieldsOf<Resource>(v), [key]: value });
}

export const authorizerLibrary: CelFunc[] = [
  celMethod('path', AUTHORIZER, [STRING], PATH_CHECK, function (path: string) {
    return make(descs.pathCheck, { ...fieldsOf<Common>(this), path });
  }),
  celMethod('group', AUTHORIZER, [STRING], GROUP_CHECK, function (group: string) {
    return make(descs.groupCheck, { ...fieldsOf<Common>(this), group });
  }),
  celMethod('serviceAccount', AUTHORIZER, [STRING, STRING], AUTHORIZER, function (namespace: string, name: string) {
    return make(descs.authorizer, { handle: fieldsOf<Common>(this).handle, sa: `${namespace}:${name}` });
  }),
  celMethod('resource', GROUP_CHECK, [STRING], RESOURCE_CHECK, function (resource: string) {
    const f = fieldsOf<Common & { group: string }>(this);
    return make(descs.resourceCheck, { handle: f.handle, sa: f.sa, group: f.group, resource });
  }),
  celMethod('subresource', RESOURCE_CHECK, [STRING], RESOURCE_CHECK, function (s: string) { return withField(this, 'subresource', s); }),
  celMethod('namespace', RESOURCE_CHECK, [STRING], RESOURCE_CHECK, function (s: string) { return withField(this, 'namespace', s); }),
  celMethod('name', RESOURCE_CHECK, [STRING], RESOURCE_CHECK, function (s: string) { return withField(this, 'name', s); }),
  celMethod('check', PATH_CHECK, [STRING], DECISION, function (verb: string) {
    const f = fieldsOf<Common & { path: string }>(this);
    return decide(f, { verb, isResourceRequest: false, path: f.path, apiGroup: '', resource: '', subresource: '', namespace: '', name: '' });
  }),
  celMethod('check', RESOURCE_CHECK, [STRING], DECISION, function (verb: string) {
    const f = fieldsOf<Resource>(this);
    return decide(f, { verb, isResourceRequest: true, path: '', apiGroup: f.group, resource: f.resource, subresource: f.subresource, namespace: f.namespace, name: f.name });
  }),
  celMethod('allowed', DECISION, [], BOOL, function () { return fieldsOf<{ allowed: boolean }>(this).allowed; }),
  celMethod('reason', DECISION, [], STRING, function () { return fieldsOf<{ reason: string }>(this).reason; }),
  celMethod('errored', DECISION, [], BOOL, function () { return fieldsOf<{ error: string }>(this).error !== ''; }),
  celMethod('error', DECISION, [], STRING, function () { return fieldsOf<{ error: string }>(this).error; }),
];
