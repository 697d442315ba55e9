// Capabilities. Baseline: only the container runtime's default set may be added. Restricted
// (from v1.22, replacing the baseline check): every container drops ALL and adds at most
// NET_BIND_SERVICE; Windows pods are exempt from v1.25.

import { joinQuote, named, sortedSet } from '../words.ts';
import { containersOf, unlessWindows, type Check, type CheckFn } from './types.ts';

const defaultSet = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

/** containers adding capabilities outside `allowed`, and those capabilities sorted */
function adding(s: Parameters<CheckFn>[1], allowed: (c: string) => boolean): { names: string[]; caps: string[] } {
  const names: string[] = [];
  const caps: string[] = [];
  for (const c of containersOf(s)) {
    const bad = (c.securityContext?.capabilities?.add ?? []).filter(x => !allowed(x));
    if (bad.length) { names.push(c.name); caps.push(...bad); }
  }
  return { names, caps: sortedSet(caps) };
}

const addedText = (a: { names: string[]; caps: string[] }) => `${named('container', 'containers', a.names)} must not include ${joinQuote(a.caps)} in securityContext.capabilities.add`;

const baseline: CheckFn = (_m, s) => {
  const a = adding(s, c => defaultSet.has(c));
  return a.names.length ? { reason: 'non-default capabilities', detail: addedText(a) } : undefined;
};

const restricted: CheckFn = (_m, s) => {
  const noDropAll = containersOf(s).filter(c => !(c.securityContext?.capabilities?.drop ?? []).includes('ALL')).map(c => c.name);
  const a = adding(s, c => c === 'NET_BIND_SERVICE');
  const details: string[] = [];
  if (noDropAll.length) details.push(`${named('container', 'containers', noDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (a.names.length) details.push(addedText(a));
  return details.length ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
};

export const capabilityChecks: Check[] = [
  { id: 'capabilities_baseline', level: 'baseline', versions: [{ minimumVersion: 0, run: baseline }] },
  { id: 'capabilities_restricted', level: 'restricted', versions: [
    { minimumVersion: 22, run: restricted, overrides: ['capabilities_baseline'] },
    { minimumVersion: 25, run: unlessWindows(restricted), overrides: ['capabilities_baseline'] },
  ] },
];
