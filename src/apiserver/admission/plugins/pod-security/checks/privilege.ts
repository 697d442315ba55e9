// Privileged containers (baseline) and privilege escalation (restricted: every container must
// set allowPrivilegeEscalation=false; Windows pods are exempt from v1.25, when pod.spec.os came).

import { named } from '../words.ts';
import { containersOf, unlessWindows, type Check, type CheckFn } from './types.ts';

const privileged: CheckFn = (_m, s) => {
  const bad = containersOf(s).filter(c => c.securityContext?.privileged === true).map(c => c.name);
  return bad.length ? { reason: 'privileged', detail: `${named('container', 'containers', bad)} must not set securityContext.privileged=true` } : undefined;
};

const allowPrivilegeEscalation: CheckFn = (_m, s) => {
  const bad = containersOf(s).filter(c => c.securityContext?.allowPrivilegeEscalation !== false).map(c => c.name);
  return bad.length ? { reason: 'allowPrivilegeEscalation != false', detail: `${named('container', 'containers', bad)} must set securityContext.allowPrivilegeEscalation=false` } : undefined;
};

export const privilegeChecks: Check[] = [
  { id: 'privileged', level: 'baseline', versions: [{ minimumVersion: 0, run: privileged }] },
  // the field exists from v1.8
  { id: 'allowPrivilegeEscalation', level: 'restricted', versions: [
    { minimumVersion: 8, run: allowPrivilegeEscalation },
    { minimumVersion: 25, run: unlessWindows(allowPrivilegeEscalation) },
  ] },
];
