// The words of an escalation refusal, as Kubernetes writes them: the user, their groups in Go's
// %q list form, then each missing rule compacted, sorted, one a line.

import type { User } from '../context.ts';
import { compactRules, missingRules } from './covers.ts';
import { compactRule, type PolicyRule } from './rules.ts';

export function compactMissing(held: PolicyRule[], wanted: PolicyRule[]): PolicyRule[] {
  return compactRules(missingRules(held, wanted));
}

const goQuotedList = (xs: string[]) => `[${xs.map(x => JSON.stringify(x)).join(' ')}]`;

export function describeMissing(user: User, missing: PolicyRule[], resolutionErrors: string[]): string {
  const lines = [...new Set(missing.map(compactRule))].sort();
  let msg = `user ${JSON.stringify(user.name)} (groups=${goQuotedList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (resolutionErrors.length) msg += `; resolution errors: [${resolutionErrors.join(' ')}]`;
  return msg;
}
