// The naming decision of kube-apiserver's CRD naming controller: which of a CRD's requested
// names it may have, given the names other CRDs of its group already hold, and the
// NamesAccepted and Established conditions that follow. Pure; the controller applies it.

import type { Crd, CrdCondition, CrdNames } from './crd-types.ts';
import { conditionOf } from './crd-types.ts';

export interface NamingOutcome {
  acceptedNames: CrdNames;
  namesAccepted: CrdCondition;
  established: CrdCondition;
}

/**
 * resource names (plural, singular, short names) and kinds the CRDs of `self`'s group accepted,
 * its own included, as the naming controller gathers them
 */
export function namesInUse(all: Crd[], self: Crd): { resources: Set<string>; kinds: Set<string> } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of all) {
    if (other.spec.group !== self.spec.group) continue;
    const accepted = other.status?.acceptedNames;
    if (!accepted) continue;
    for (const n of [accepted.plural, accepted.singular, ...(accepted.shortNames ?? [])]) if (n) resources.add(n);
    for (const k of [accepted.kind, accepted.listKind]) if (k) kinds.add(k);
  }
  return { resources, kinds };
}

/** a name may be taken when it is the one already accepted, or nobody else holds it */
function conflict(requested: string | undefined, accepted: string | undefined, used: Set<string>): string | undefined {
  if (requested === accepted || !requested || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

/** several errors read as Kubernetes' aggregate error prints them */
function aggregate(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

export function decideNames(crd: Crd, all: Crd[]): NamingOutcome {
  const { resources, kinds } = namesInUse(all, crd);
  const requested = crd.spec.names;
  const accepted: CrdNames = crd.status?.acceptedNames ?? { plural: '', kind: '' };
  const next: CrdNames = { ...accepted };
  let refusal: { reason: string; message: string } | undefined;
  // every name is checked so the status holds the best match; the last conflict is reported
  const check = (reason: string, message: string | undefined, take: () => void): void => {
    if (message) refusal = { reason, message }; else take();
  };
  check('PluralConflict', conflict(requested.plural, accepted.plural, resources), () => { next.plural = requested.plural; });
  check('SingularConflict', conflict(requested.singular, accepted.singular, resources), () => { next.singular = requested.singular; });
  const wanted = requested.shortNames ?? [];
  const held = accepted.shortNames ?? [];
  if (JSON.stringify(wanted) !== JSON.stringify(held)) {
    // a short name already ours, or equal to our own accepted plural or singular, is no conflict
    const fresh = wanted.filter(s => !held.includes(s) && s !== accepted.plural && s !== accepted.singular);
    const errors = fresh.map(s => conflict(s, undefined, resources)).filter((m): m is string => !!m);
    check('ShortNamesConflict', errors.length ? aggregate(errors) : undefined, () => { next.shortNames = [...wanted]; });
  }
  check('KindConflict', conflict(requested.kind, accepted.kind, kinds), () => { next.kind = requested.kind; });
  check('ListKindConflict', conflict(requested.listKind, accepted.listKind, kinds), () => { next.listKind = requested.listKind; });
  if (requested.categories) next.categories = [...requested.categories]; else delete next.categories;
  if (!next.shortNames?.length) delete next.shortNames;

  const namesAccepted: CrdCondition = refusal
    ? { type: 'NamesAccepted', status: 'False', reason: refusal.reason, message: refusal.message }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  const previous = conditionOf(crd, 'Established');
  let established: CrdCondition = previous
    ? { type: 'Established', status: previous.status, reason: previous.reason, message: previous.message }
    : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  // once established a CRD stays so, whatever later name changes are refused; a first
  // acceptance makes it Installing, which establish() then turns into Established
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { acceptedNames: next, namesAccepted, established };
}

/**
 * the establishing controller's step: a CRD whose names are accepted and that is not yet
 * established becomes so (undefined: nothing to change)
 */
export function establish(namesAccepted: CrdCondition | undefined, established: CrdCondition | undefined): CrdCondition | undefined {
  if (namesAccepted?.status !== 'True' || established?.status === 'True') return undefined;
  return { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
}

/** whether the naming controller has work on this CRD: its requested names differ from the accepted ones */
export function namesSettled(crd: Crd): boolean {
  const a = crd.status?.acceptedNames;
  const r = crd.spec.names;
  if (!a) return false;
  const same = (x: string[] | undefined, y: string[] | undefined) => JSON.stringify(x ?? []) === JSON.stringify(y ?? []);
  return a.plural === r.plural && (a.singular ?? '') === (r.singular ?? '') && a.kind === r.kind && (a.listKind ?? '') === (r.listKind ?? '')
    && same(a.shortNames, r.shortNames) && same(a.categories, r.categories);
}
