// Who containers run as (restricted): runAsNonRoot must be true, on the pod or on every
// container, and never false anywhere; runAsUser may not be 0 (from v1.23). From v1.35 both pass
// a pod in a user namespace (hostUsers: false), where root is not the host's root.

import { named } from '../words.ts';
import { containersOf, unlessUserNamespace, type Check, type CheckFn } from './types.ts';

const runAsNonRoot: CheckFn = (_m, s) => {
  const setters: string[] = [];
  const podValue = s.securityContext?.runAsNonRoot;
  if (podValue === false) setters.push('pod');
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containersOf(s)) {
    const v = c.securityContext?.runAsNonRoot;
    if (v != null) { if (!v) explicit.push(c.name); } else if (podValue !== true) implicit.push(c.name);
  }
  if (explicit.length) setters.push(named('container', 'containers', explicit));
  if (setters.length) return { reason: 'runAsNonRoot != true', detail: `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (implicit.length) return { reason: 'runAsNonRoot != true', detail: `pod or ${named('container', 'containers', implicit)} must set securityContext.runAsNonRoot=true` };
  return undefined;
};

const runAsUser: CheckFn = (_m, s) => {
  const setters: string[] = [];
  if (s.securityContext?.runAsUser === 0) setters.push('pod');
  const bad = containersOf(s).filter(c => c.securityContext?.runAsUser === 0).map(c => c.name);
  if (bad.length) setters.push(named('container', 'containers', bad));
  return setters.length ? { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` } : undefined;
};

export const runAsChecks: Check[] = [
  { id: 'runAsNonRoot', level: 'restricted', versions: [
    { minimumVersion: 0, run: runAsNonRoot },
    { minimumVersion: 35, run: unlessUserNamespace(runAsNonRoot) },
  ] },
  { id: 'runAsUser', level: 'restricted', versions: [
    { minimumVersion: 23, run: runAsUser },
    { minimumVersion: 35, run: unlessUserNamespace(runAsUser) },
  ] },
];
