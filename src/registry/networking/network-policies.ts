// NetworkPolicies: networking/v1's defaults (each port's protocol TCP; policyTypes Ingress, plus
// Egress when there are egress rules, when none are given) on every write, as the API server
// decodes them, and its validation; an update keeps accepting CIDRs the stored policy had.

import { isObject, type KubeObject } from '../../api/object.ts';
import { strategyWith } from '../strategy.ts';
import { storedCidrs, validateNetworkPolicySpec } from '../validation/network-policy.ts';

type Obj = Record<string, unknown>;

export function defaultNetworkPolicy(obj: KubeObject): void {
  if (!isObject(obj.spec)) return;
  const spec = obj.spec as Obj;
  for (const list of ['ingress', 'egress']) {
    for (const rule of Array.isArray(spec[list]) ? spec[list] as unknown[] : []) {
      for (const port of isObject(rule) && Array.isArray(rule.ports) ? rule.ports : []) if (isObject(port)) port.protocol ??= 'TCP';
    }
  }
  if (!Array.isArray(spec.policyTypes) || !spec.policyTypes.length) {
    spec.policyTypes = ['Ingress', ...(Array.isArray(spec.egress) && spec.egress.length ? ['Egress'] : [])];
  }
}

export const networkPolicyStrategy = strategyWith({
  tracksGeneration: true,
  prepareForCreate: defaultNetworkPolicy,
  prepareForUpdate: obj => defaultNetworkPolicy(obj),
  validateCreate: obj => validateNetworkPolicySpec(obj.spec),
  validateUpdate: (obj, old) => validateNetworkPolicySpec(obj.spec, storedCidrs(old.spec)),
});
