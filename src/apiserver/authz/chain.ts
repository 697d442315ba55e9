// `--authorization-mode`: authorizers asked in order, the first that allows or denies decides.
// Members of system:masters are allowed before the chain is asked, as kube-apiserver does, so an
// administrator cannot lock themselves out by editing RBAC.

import type { User } from '../context.ts';
import type { Attributes, Authorizer, Decision, RulesInfo } from './attributes.ts';

export const authorizationModes = ['AlwaysAllow', 'AlwaysDeny', 'RBAC', 'Node'] as const;
export type AuthorizationMode = typeof authorizationModes[number];

export const privilegedGroup = 'system:masters';

export function parseAuthorizationModes(flag: string): AuthorizationMode[] {
  const modes = flag.split(',').map(s => s.trim()).filter(Boolean);
  if (!modes.length) throw new Error('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const m of modes) {
    if (!(authorizationModes as readonly string[]).includes(m)) throw new Error(`authorization-mode ${JSON.stringify(m)} is not a valid mode`);
    if (seen.has(m)) throw new Error(`authorization-mode ${JSON.stringify(m)} has mode specified more than once`);
    seen.add(m);
  }
  return modes as AuthorizationMode[];
}

const everything = (): RulesInfo => ({
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
});

export const alwaysAllow: Authorizer = { authorize: () => ({ decision: 'allow', reason: '' }), rulesFor: everything };
// AlwaysDeny has no opinion (a later mode may still allow), only the reason a refusal then gives
export const alwaysDeny: Authorizer = {
  authorize: () => ({ decision: 'no-opinion', reason: 'Everything is forbidden.' }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
};

export function createChain(members: Authorizer[]): Authorizer {
  return {
    authorize(a: Attributes): { decision: Decision; reason: string } {
      if (a.user.groups.includes(privilegedGroup)) return { decision: 'allow', reason: '' };
      const reasons: string[] = [];
      for (const m of members) {
        const r = m.authorize(a);
        if (r.decision !== 'no-opinion') return r;
        if (r.reason) reasons.push(r.reason);
      }
      return { decision: 'no-opinion', reason: reasons.join('\n') };
    },
    rulesFor(user: User, namespace: string): RulesInfo {
      if (user.groups.includes(privilegedGroup)) return everything();
      const out: RulesInfo = { resourceRules: [], nonResourceRules: [], incomplete: false };
      const errors: string[] = [];
      for (const m of members) {
        // an authorizer that cannot list its rules leaves the answer incomplete
        if (!m.rulesFor) { out.incomplete = true; continue; }
        const r = m.rulesFor(user, namespace);
        out.resourceRules.push(...r.resourceRules);
        out.nonResourceRules.push(...r.nonResourceRules);
        out.incomplete ||= r.incomplete;
        if (r.evaluationError) errors.push(r.evaluationError);
      }
      if (errors.length) out.evaluationError = errors.join(', ');
      return out;
    },
  };
}
