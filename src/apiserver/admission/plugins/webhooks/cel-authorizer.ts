// Kubernetes' CEL authorizer library for matchConditions: `authorizer.group('apps')
// .resource('deployments').namespace('ns').name('x').check('get').allowed()`,
// `authorizer.path('/healthz').check('get')`, `authorizer.serviceAccount(ns, name)`, and a
// decision's `allowed()`, `reason()`, `errored()`, `error()`. The values are CEL maps carrying
// what was chosen so far; `check` asks the authorizer of the evaluation running now, which is
// synchronous, so one module-level slot holds it for the evaluation's duration.

import { celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import type { User } from '../../../user.ts';

export interface CelAuthorizer {
  user: User;
  /** the request's authorizer, synchronous as orch's authorizers are */
  authorize(a: { user: User; verb: string; isResourceRequest: boolean; path: string; apiGroup: string; resource: string; subresource: string; namespace: string; name: string }): { decision: 'allow' | 'deny' | 'no-opinion'; reason: string };
}

const marker = '__authorizer';
let current: CelAuthorizer | undefined;

type Fields = Map<string, string>;
interface Readable { get(key: string): unknown }

function fields(target: unknown): Fields {
  const src = target as Readable;
  const out: Fields = new Map();
  for (const k of [marker, 'user', 'group', 'resource', 'subresource', 'namespace', 'name', 'path']) {
    const v = src.get(k);
    if (typeof v === 'string') out.set(k, v);
  }
  return out;
}

function withField(target: unknown, key: string, value: string): Fields {
  const f = fields(target);
  f.set(key, value);
  return f;
}

function userOf(f: Fields, base: User): User {
  const sa = f.get('user');
  if (!sa) return base;
  const [ns] = sa.split(':').slice(2);
  return { name: sa, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] };
}

function check(target: unknown, verb: string): Map<string, unknown> {
  const f = fields(target);
  if (!current) return new Map<string, unknown>([['decision', 'error'], ['reason', ''], ['error', 'no authorizer']]);
  const isResourceRequest = f.get(marker) === 'resource';
  const d = current.authorize({
    user: userOf(f, current.user), verb, isResourceRequest, path: isResourceRequest ? '' : f.get('path') ?? '',
    apiGroup: f.get('group') ?? '', resource: f.get('resource') ?? '', subresource: f.get('subresource') ?? '',
    namespace: f.get('namespace') ?? '', name: f.get('name') ?? '',
  });
  return new Map<string, unknown>([['decision', d.decision], ['reason', d.reason], ['error', '']]);
}

const dyn = CelScalar.DYN;
const str = CelScalar.STRING;

export const authorizerFuncs: CelFunc[] = [
  celMethod('path', dyn, [str], dyn, function (p) { return withField(this, marker, 'path').set('path', p); }),
  celMethod('group', dyn, [str], dyn, function (g) { return withField(this, marker, 'resource').set('group', g); }),
  celMethod('serviceAccount', dyn, [str, str], dyn, function (ns, n) { return withField(this, 'user', `system:serviceaccount:${ns}:${n}`); }),
  celMethod('resource', dyn, [str], dyn, function (r) { return withField(this, 'resource', r); }),
  celMethod('subresource', dyn, [str], dyn, function (s) { return withField(this, 'subresource', s); }),
  celMethod('namespace', dyn, [str], dyn, function (n) { return withField(this, 'namespace', n); }),
  celMethod('name', dyn, [str], dyn, function (n) { return withField(this, 'name', n); }),
  celMethod('check', dyn, [str], dyn, function (v) { return check(this, v) as never; }),
  celMethod('allowed', dyn, [], CelScalar.BOOL, function () { return (this as unknown as Readable).get('decision') === 'allow'; }),
  celMethod('reason', dyn, [], str, function () { return String((this as unknown as Readable).get('reason') ?? ''); }),
  celMethod('errored', dyn, [], CelScalar.BOOL, function () { return (this as unknown as Readable).get('error') !== ''; }),
  celMethod('error', dyn, [], str, function () { return String((this as unknown as Readable).get('error') ?? ''); }),
];

/** the `authorizer` variable: a root that group(), path() and serviceAccount() start from */
export function authorizerValue(): Map<string, string> {
  return new Map([[marker, 'root']]);
}

/** runs a synchronous evaluation with `a` answering its checks */
export function withAuthorizer<T>(a: CelAuthorizer | undefined, during: () => T): T {
  const saved = current;
  current = a;
  try { return during(); } finally { current = saved; }
}
