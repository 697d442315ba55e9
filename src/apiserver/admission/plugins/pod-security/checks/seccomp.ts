// Seccomp. Baseline: before v1.19 the alpha annotations (pod and per container) may name only
// runtime/default, docker/default or localhost/*; from v1.19 securityContext.seccompProfile.type
// may not be anything but RuntimeDefault or Localhost. Restricted (from v1.19, replacing the
// baseline check): every container must have one of those, its own or the pod's; Windows pods
// are exempt from v1.25.

import { goQuote, joinQuote, named, pluralize, sortedSet } from '../words.ts';
import { containersOf, unlessWindows, type Check, type CheckFn } from './types.ts';

const podAnnotation = 'seccomp.security.alpha.kubernetes.io/pod';
const containerAnnotationPrefix = 'container.seccomp.security.alpha.kubernetes.io/';
const validType = (t: string | undefined) => t === 'RuntimeDefault' || t === 'Localhost';
const validAnnotation = (v: string) => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');

const baselineAnnotations: CheckFn = (meta, s) => {
  const a = meta.annotations ?? {};
  const forbidden: string[] = [];
  const check = (key: string) => { if (key in a && !validAnnotation(a[key]!)) forbidden.push(`${key}=${goQuote(a[key]!)}`); };
  check(podAnnotation);
  for (const c of containersOf(s)) check(containerAnnotationPrefix + c.name);
  const list = sortedSet(forbidden);
  return list.length ? { reason: 'seccompProfile', detail: `forbidden ${pluralize('annotation', 'annotations', list.length)} ${list.join(', ')}` } : undefined;
};

/** pod and containers that set a bad type, the bad types, and containers left without any */
function survey(s: Parameters<CheckFn>[1]) {
  const setters: string[] = [];
  const values: string[] = [];
  let podSet = false;
  const podProfile = s.securityContext?.seccompProfile;
  if (podProfile) {
    if (!validType(podProfile.type)) { setters.push('pod'); values.push(podProfile.type ?? ''); } else podSet = true;
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containersOf(s)) {
    const p = c.securityContext?.seccompProfile;
    if (p) {
      if (!validType(p.type)) { explicit.push(c.name); values.push(p.type ?? ''); }
    } else if (!podSet) implicit.push(c.name);
  }
  if (explicit.length) setters.push(named('container', 'containers', explicit));
  return { setters, values: sortedSet(values), implicit };
}

const badTypes = (v: { setters: string[]; values: string[] }) => ({ reason: 'seccompProfile', detail: `${v.setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(v.values)}` });

const baselineField: CheckFn = (_m, s) => {
  const v = survey(s);
  return v.setters.length ? badTypes(v) : undefined;
};

const restricted: CheckFn = (_m, s) => {
  const v = survey(s);
  if (v.setters.length) return badTypes(v);
  if (v.implicit.length) return { reason: 'seccompProfile', detail: `pod or ${named('container', 'containers', v.implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
  return undefined;
};

export const seccompChecks: Check[] = [
  { id: 'seccompProfile_baseline', level: 'baseline', versions: [
    { minimumVersion: 0, run: baselineAnnotations },
    { minimumVersion: 19, run: baselineField },
  ] },
  { id: 'seccompProfile_restricted', level: 'restricted', versions: [
    { minimumVersion: 19, run: restricted, overrides: ['seccompProfile_baseline'] },
    { minimumVersion: 25, run: unlessWindows(restricted), overrides: ['seccompProfile_baseline'] },
  ] },
];
