// AlwaysAdmit and AlwaysDeny, Kubernetes' two deprecated test plugins: the one admits
// everything, the other refuses every write with Kubernetes' wording.

import type { AdmissionPlugin } from '../types.ts';
import { admissionForbidden } from '../errors.ts';

export function alwaysAdmit(): AdmissionPlugin {
  return { name: 'AlwaysAdmit', admit() {}, validate() {} };
}

export function alwaysDeny(): AdmissionPlugin {
  const deny = (a: Parameters<NonNullable<AdmissionPlugin['admit']>>[0]) => { throw admissionForbidden(a, 'admission control is denying all modifications'); };
  return { name: 'AlwaysDeny', admit: deny, validate: deny };
}
