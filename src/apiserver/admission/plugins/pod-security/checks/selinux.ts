// SELinux (baseline): seLinuxOptions on the pod and its containers may set only a container
// type (container_engine_t allowed from v1.31) and never a user or a role.

import { joinQuote, named, pluralize, sortedSet } from '../words.ts';
import type { CoreV1SELinuxOptions } from '../../../../../schema/generated/types.ts';
import { containersOf, type Check, type CheckFn } from './types.ts';

const types1_0 = ['', 'container_t', 'container_init_t', 'container_kvm_t'];
const types1_31 = [...types1_0, 'container_engine_t'];

function seLinuxOptions(allowedTypes: ReadonlySet<string>): CheckFn {
  return (_m, s) => {
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const valid = (o: CoreV1SELinuxOptions) => {
      let ok = true;
      if (!allowedTypes.has(o.type ?? '')) { ok = false; badTypes.push(o.type ?? ''); }
      if (o.user) { ok = false; setUser = true; }
      if (o.role) { ok = false; setRole = true; }
      return ok;
    };
    const setters: string[] = [];
    const podOptions = s.securityContext?.seLinuxOptions;
    if (podOptions && !valid(podOptions)) setters.push('pod');
    const containers = containersOf(s).filter(c => c.securityContext?.seLinuxOptions && !valid(c.securityContext.seLinuxOptions)).map(c => c.name);
    if (containers.length) setters.push(named('container', 'containers', containers));
    if (!setters.length) return undefined;
    const types = sortedSet(badTypes);
    const what: string[] = [];
    if (types.length) what.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
    if (setUser) what.push('user may not be set');
    if (setRole) what.push('role may not be set');
    return { reason: 'seLinuxOptions', detail: `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${what.join('; ')}` };
  };
}

export const seLinuxChecks: Check[] = [
  { id: 'seLinuxOptions', level: 'baseline', versions: [
    { minimumVersion: 0, run: seLinuxOptions(new Set(types1_0)) },
    { minimumVersion: 31, run: seLinuxOptions(new Set(types1_31)) },
  ] },
];
