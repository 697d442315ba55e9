// procMount: the default /proc masks. Baseline forbids any other procMount, but from v1.35 lets a
// pod in a user namespace (hostUsers: false) choose; restricted keeps the unconditional rule from
// v1.35, in place of the relaxed baseline check.

import { joinQuote, named, sortedSet } from '../words.ts';
import { containersOf, unlessUserNamespace, type Check, type CheckFn } from './types.ts';

const procMount: CheckFn = (_m, s) => {
  const bad = containersOf(s).filter(c => c.securityContext?.procMount != null && c.securityContext.procMount !== 'Default');
  if (!bad.length) return undefined;
  const types = sortedSet(bad.map(c => c.securityContext!.procMount!));
  return { reason: 'procMount', detail: `${named('container', 'containers', bad.map(c => c.name))} must not set securityContext.procMount to ${joinQuote(types)}` };
};

export const procMountChecks: Check[] = [
  { id: 'procMount', level: 'baseline', versions: [
    { minimumVersion: 0, run: procMount },
    { minimumVersion: 35, run: unlessUserNamespace(procMount) },
  ] },
  { id: 'procMount_restricted', level: 'restricted', versions: [
    { minimumVersion: 35, run: procMount, overrides: ['procMount'] },
  ] },
];
