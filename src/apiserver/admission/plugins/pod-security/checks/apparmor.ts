// AppArmor (baseline, all versions): the default profile may not be overridden or disabled.
// Both ways of asking are checked: securityContext.appArmorProfile.type on the pod and its
// containers (RuntimeDefault or Localhost), and the deprecated per-container annotations
// (runtime/default, localhost/*, or empty).

import { goQuote, joinQuote, named, pluralize, sortedSet } from '../words.ts';
import { containersOf, type Check, type CheckFn } from './types.ts';

const annotationPrefix = 'container.apparmor.security.beta.kubernetes.io/';
const allowedType = (t: string | undefined) => t === 'RuntimeDefault' || t === 'Localhost';
const allowedAnnotation = (v: string) => v === '' || v === 'runtime/default' || v.startsWith('localhost/');

const appArmorProfile: CheckFn = (meta, s) => {
  const setters: string[] = [];
  const values: string[] = [];
  const podProfile = s.securityContext?.appArmorProfile;
  if (podProfile && !allowedType(podProfile.type)) { setters.push('pod'); values.push(podProfile.type ?? ''); }
  const containers: string[] = [];
  for (const c of containersOf(s)) {
    const p = c.securityContext?.appArmorProfile;
    if (p && !allowedType(p.type)) { containers.push(c.name); values.push(p.type ?? ''); }
  }
  if (containers.length) setters.push(named('container', 'containers', containers));
  const badValues = sortedSet(values);
  const annotations = Object.entries(meta.annotations ?? {})
    .filter(([k, v]) => k.startsWith(annotationPrefix) && !allowedAnnotation(v))
    .map(([k, v]) => `${k}=${goQuote(v)}`).sort();
  if (annotations.length) { badValues.push(...annotations); setters.push(pluralize('annotation', 'annotations', annotations.length)); }
  if (!setters.length) return undefined;
  return {
    reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', badValues.length),
    detail: `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(badValues)}`,
  };
};

export const appArmorChecks: Check[] = [
  { id: 'appArmorProfile', level: 'baseline', versions: [{ minimumVersion: 0, run: appArmorProfile }] },
];
