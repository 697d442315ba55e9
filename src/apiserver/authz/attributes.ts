// What an authorizer is asked: who (user, groups) wants to do what (verb) to which resource or
// non-resource path, as kube-apiserver's authorization attributes carry it.

import type { User } from '../user.ts';
import type { RequestInfo } from '../request-info.ts';
import type { PolicyRule } from './rules.ts';

export interface Attributes {
  user: User;
  verb: string;
  isResourceRequest: boolean;
  /** non-resource requests: the path */
  path: string;
  apiGroup: string;
  apiVersion?: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface RulesInfo {
  resourceRules: PolicyRule[];
  nonResourceRules: PolicyRule[];
  /** some authorizer could not list what it allows (Node), so the list may be short */
  incomplete: boolean;
  evaluationError?: string;
}

export interface Authorizer {
  authorize(a: Attributes): { decision: Decision; reason: string };
  /** what the user may do in a namespace, for SelfSubjectRulesReview */
  rulesFor?(user: User, namespace: string): RulesInfo;
}

/**
 * The attributes of a request. A list or watch whose field selector names one object carries
 * that name, as the request-info factory sets it, so resourceNames rules can allow it.
 */
export function attributesOf(user: User, info: RequestInfo, query: URLSearchParams): Attributes {
  let name = info.name ?? '';
  if (!name && (info.verb === 'list' || info.verb === 'watch')) {
    const fs = query.get('fieldSelector');
    const m = fs ? /^metadata\.name==?([^,]*)$/.exec(fs) : null;
    if (m) name = m[1]!;
  }
  // a namespace's own subresources (namespaces/x/status) and the namespace itself have the namespace as name
  const namespace = info.resource === 'namespaces' ? '' : info.namespace ?? '';
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource ?? '',
    namespace: info.isResourceRequest ? namespace : '',
    name,
  };
}
