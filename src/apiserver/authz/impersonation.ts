// Impersonation headers (Impersonate-User, -Group, -Uid, -Extra-<key>): the requester must be
// allowed the `impersonate` verb on each thing asked for (users or serviceaccounts, groups,
// uids, userextras/<key>); the request then runs as the impersonated user.

import type { IncomingHttpHeaders } from 'node:http';
import { internalError, type StatusError } from '../../api/status.ts';
import type { User } from '../context.ts';
import type { Attributes, Authorizer } from './attributes.ts';
import { forbiddenError } from './forbidden.ts';

export const authenticatedGroup = 'system:authenticated';
export const unauthenticatedGroup = 'system:unauthenticated';
export const anonymousUser = 'system:anonymous';

const list = (v: string | string[] | undefined): string[] => v === undefined ? [] : Array.isArray(v) ? v : [v];

/** whether the request carries any impersonation header (the fast path skips everything else) */
export function wantsImpersonation(headers: IncomingHttpHeaders): boolean {
  for (const k in headers) if (k.startsWith('impersonate-')) return true;
  return false;
}

/** the user the request runs as, or a Status error (403 in Kubernetes' words) */
export function impersonate(actor: User, headers: IncomingHttpHeaders, authz: Authorizer): User | StatusError {
  const name = list(headers['impersonate-user'])[0];
  const groups = list(headers['impersonate-group']).flatMap(g => g.split(',').map(s => s.trim())).filter(Boolean);
  const uid = list(headers['impersonate-uid'])[0];
  const extra: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (!k.startsWith('impersonate-extra-')) continue;
    let key = k.slice('impersonate-extra-'.length);
    try { key = decodeURIComponent(key); } catch { /* kept as sent */ }
    extra[key.toLowerCase()] = list(v as string | string[]);
  }
  if (!name) {
    if (groups.length || uid !== undefined || Object.keys(extra).length) return internalError(new Error('requested impersonation of groups, a uid or extras without impersonating a user'));
    return actor;
  }
  const check = (a: Omit<Attributes, 'user' | 'verb' | 'isResourceRequest' | 'path' | 'subresource' | 'namespace'> & { subresource?: string; namespace?: string }): StatusError | undefined => {
    const attrs: Attributes = { user: actor, verb: 'impersonate', isResourceRequest: true, path: '', subresource: '', namespace: '', ...a };
    const r = authz.authorize(attrs);
    return r.decision === 'allow' ? undefined : forbiddenError(attrs, r.reason);
  };
  const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(name);
  const err = sa
    ? check({ apiGroup: '', resource: 'serviceaccounts', namespace: sa[1]!, name: sa[2]! })
    : check({ apiGroup: '', resource: 'users', name });
  if (err) return err;
  for (const g of groups) { const e = check({ apiGroup: '', resource: 'groups', name: g }); if (e) return e; }
  if (uid !== undefined) { const e = check({ apiGroup: 'authentication.k8s.io', resource: 'uids', name: uid }); if (e) return e; }
  for (const [key, values] of Object.entries(extra)) {
    for (const v of values) { const e = check({ apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: key, name: v }); if (e) return e; }
  }
  const out = [...groups];
  // a service account impersonated without groups gets its own, as its token would give it
  if (sa && !groups.length) out.push('system:serviceaccounts', `system:serviceaccounts:${sa[1]}`);
  const implied = name === anonymousUser ? unauthenticatedGroup : authenticatedGroup;
  if (!out.includes(implied)) out.push(implied);
  const user: User = { name, groups: out };
  if (uid !== undefined) user.uid = uid;
  if (Object.keys(extra).length) user.extra = extra;
  return user;
}
