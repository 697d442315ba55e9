// The status a CustomResourceDefinition should have now, given every CRD: the naming
// controller's accepted names and NamesAccepted/Established conditions, then the establishing
// controller's Established (registry/apiextensions/naming.ts decides both). Pure; undefined
// when the stored status already says it all.

import { jsonEqual } from '../../api/object.ts';
import { decideNames, establish, namesSettled } from '../../registry/apiextensions/naming.ts';
import { conditionOf, withCondition, type Crd, type CrdCondition } from '../../registry/apiextensions/crd-types.ts';

/** conditions alike in all but their transition time (IsCRDConditionEquivalent) */
function equivalent(a: CrdCondition | undefined, b: CrdCondition | undefined): boolean {
  return !!a && !!b && a.type === b.type && a.status === b.status && a.reason === b.reason && a.message === b.message;
}

export function nextStatus(crd: Crd, all: Crd[], now: string): Crd['status'] | undefined {
  const status = { ...(crd.status ?? {}) };
  if (!namesSettled(crd)) {
    const { acceptedNames, namesAccepted, established } = decideNames(crd, all);
    if (!jsonEqual(acceptedNames, status.acceptedNames) || !equivalent(namesAccepted, conditionOf(crd, 'NamesAccepted'))) {
      status.acceptedNames = acceptedNames;
      status.conditions = withCondition(withCondition(status.conditions, namesAccepted, now), established, now);
    }
  }
  const find = (type: string) => status.conditions?.find(c => c.type === type);
  const established = establish(find('NamesAccepted'), find('Established'));
  if (established) status.conditions = withCondition(status.conditions, established, now);
  return jsonEqual(status, crd.status ?? {}) ? undefined : status;
}

/** CRDs in the order the naming controller settles them: the oldest claims a contested name */
export function byAge(a: Crd, b: Crd): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}
