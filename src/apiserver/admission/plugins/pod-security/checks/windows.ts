// Windows HostProcess containers (baseline): neither the pod nor a container may ask for one.

import { named } from '../words.ts';
import { containersOf, type Check, type CheckFn } from './types.ts';

const windowsHostProcess: CheckFn = (_m, s) => {
  const setters: string[] = [];
  if (s.securityContext?.windowsOptions?.hostProcess === true) setters.push('pod');
  const bad = containersOf(s).filter(c => c.securityContext?.windowsOptions?.hostProcess === true).map(c => c.name);
  if (bad.length) setters.push(named('container', 'containers', bad));
  return setters.length ? { reason: 'hostProcess', detail: `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` } : undefined;
};

export const windowsChecks: Check[] = [
  { id: 'windowsHostProcess', level: 'baseline', versions: [{ minimumVersion: 0, run: windowsHostProcess }] },
];
