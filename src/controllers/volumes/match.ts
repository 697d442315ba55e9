// Which volume a claim gets, as the binder and the scheduler choose it: among the volumes that
// are Available, unclaimed, of the claim's class and volume mode, offering every access mode it
// asks for, matching its selector and (for the scheduler) reachable from the node, the smallest
// that holds what it requests. A volume pre-bound to the claim wins outright if it fits.

import { labelSelectorFromObject, matchesLabels } from '../../api/selectors/label.ts';
import type { CoreV1Node, CoreV1PersistentVolume, CoreV1PersistentVolumeClaim } from '../../schema/generated/types.ts';
import { matchesNodeSelectorTerms } from '../scheduler/filters.ts';
import { claimClass, requestedBytes, volumeBoundToClaim, volumeBytes, volumeClass } from './claims.ts';

const modeOf = (m: string | undefined) => m ?? 'Filesystem';

export function volumeModeMismatch(c: CoreV1PersistentVolumeClaim, v: CoreV1PersistentVolume): boolean {
  return modeOf(c.spec?.volumeMode) !== modeOf(v.spec?.volumeMode);
}

export function accessModesOffered(c: CoreV1PersistentVolumeClaim, v: CoreV1PersistentVolume): boolean {
  const offered = new Set(v.spec?.accessModes ?? []);
  return (c.spec?.accessModes ?? []).every(m => offered.has(m));
}

/** the volume's node affinity admits the node (a volume without one is reachable everywhere) */
export function volumeReachableFrom(v: CoreV1PersistentVolume, node: CoreV1Node): boolean {
  const terms = v.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return true;
  return matchesNodeSelectorTerms(node, terms);
}

/**
 * Why a volume the claim names (spec.volumeName) cannot be bound to it, in the binder's words;
 * undefined when it can.
 */
export function volumeUnfitForClaim(v: CoreV1PersistentVolume, c: CoreV1PersistentVolumeClaim): string | undefined {
  if (v.metadata?.deletionTimestamp) return `the volume is marked for deletion "${v.metadata.name}"`;
  if (volumeBytes(v) < requestedBytes(c)) return 'requested PV is too small';
  if (volumeClass(v) !== claimClass(c)) return 'storageClassName does not match';
  if (volumeModeMismatch(c, v)) return 'incompatible volumeMode';
  if (!accessModesOffered(c, v)) return 'incompatible accessMode';
  return undefined;
}

export interface MatchOptions {
  /** the scheduler's candidate node: volumes must be reachable from it */
  node?: CoreV1Node;
  /** the claim's class waits for a consumer: without a node only pre-bound volumes match */
  delayBinding?: boolean;
  /** volumes already promised to other claims in the same decision */
  excluded?: Set<string>;
}

export function findMatchingVolume<V extends CoreV1PersistentVolume>(c: CoreV1PersistentVolumeClaim, volumes: Iterable<V>, o: MatchOptions = {}): V | undefined {
  const wanted = requestedBytes(c);
  const cls = claimClass(c);
  const selector = c.spec?.selector ? labelSelectorFromObject(c.spec.selector) : undefined;
  let best: V | undefined;
  let bestBytes = Infinity;
  for (const v of volumes) {
    if (o.excluded?.has(v.metadata?.name ?? '')) continue;
    if (v.metadata?.deletionTimestamp) continue;
    if (volumeModeMismatch(c, v)) continue;
    const reachable = !o.node || volumeReachableFrom(v, o.node);
    const bytes = volumeBytes(v);
    if (volumeBoundToClaim(v, c)) {
      // promised to this claim: nothing else is considered
      if (bytes < wanted || volumeClass(v) !== cls || !reachable) continue;
      return v;
    }
    if (!o.node && o.delayBinding) continue;
    if (v.spec?.claimRef) continue;
    if (selector && !matchesLabels(selector, v.metadata?.labels)) continue;
    if (v.status?.phase !== 'Available') continue;
    if (volumeClass(v) !== cls) continue;
    if (!reachable) continue;
    if (!accessModesOffered(c, v)) continue;
    if (bytes >= wanted && bytes < bestBytes) { best = v; bestBytes = bytes; }
  }
  return best;
}
