// The status a CustomResourceDefinition should have now, given every CRD: accepted names and
// the NamesAccepted and Established conditions (registry/apiextensions/naming.ts decides them).
// Pure; answers undefined when the stored status already says it all.

import { jsonEqual } from '../../api/object.ts';
import { decideNames } from '../../registry/apiextensions/naming.ts';
import { withCondition, type Crd } from '../../registry/apiextensions/crd-types.ts';

export function nextStatus(crd: Crd, all: Crd[], now: string): Crd['status'] | undefined {
  const { acceptedNames, namesAccepted, established } = decideNames(crd, all);
  const status = { ...(crd.status ?? {}) };
  status.acceptedNames = acceptedNames;
  status.conditions = withCondition(withCondition(status.conditions, namesAccepted, now), established, now);
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
