// Memory and ephemeral storage count bytes: a quantity with a fraction of a byte ("100m",
// "1.5") is accepted by validation but cannot be meant, and kube-apiserver warns of it.

import { canonicalQuantity, exactQuantity } from '../../api/quantity.ts';

const byteResources = ['memory', 'ephemeral-storage'] as const;

/**
 * whether Kubernetes calls the quantity fractional: its value in thousandths, rounded up as
 * Quantity.MilliValue rounds, is not a whole number of units
 */
export function isFractionalBytes(q: unknown): boolean {
  const x = exactQuantity(q);
  if (!x) return false;
  const den = 10n ** BigInt(x.scale);
  const scaled = x.num * 1000n;
  // ceiling division, for either sign
  let milli = scaled / den;
  if (scaled % den !== 0n && scaled > 0n) milli += 1n;
  return milli % 1000n !== 0n;
}

function warning(path: string, resource: string, q: unknown): string {
  return `${path}[${resource}]: fractional byte value "${canonicalQuantity(q) ?? String(q)}" is invalid, must be an integer`;
}

/** the fractional byte quantities of one resource list (limits, requests, overhead), memory first */
export function fractionalByteWarnings(list: Record<string, unknown> | null | undefined, path: string): string[] {
  const out: string[] = [];
  for (const r of byteResources) {
    if (list && Object.hasOwn(list, r) && isFractionalBytes(list[r])) out.push(warning(path, r, list[r]));
  }
  return out;
}

/**
 * a container's: limits then requests for memory, then the same for ephemeral storage, in the
 * order kube-apiserver says them
 */
export function containerByteWarnings(resources: { limits?: Record<string, unknown> | null; requests?: Record<string, unknown> | null } | null | undefined, path: string): string[] {
  const out: string[] = [];
  for (const r of byteResources) {
    for (const kind of ['limits', 'requests'] as const) {
      const list = resources?.[kind];
      if (list && Object.hasOwn(list, r) && isFractionalBytes(list[r])) out.push(warning(`${path}.resources.${kind}`, r, list[r]));
    }
  }
  return out;
}

/** a claim's (or claim template's) storage request, then limit, as GetWarningsForPersistentVolumeClaimSpec */
export function claimSpecWarnings(spec: { resources?: { limits?: Record<string, unknown> | null; requests?: Record<string, unknown> | null } | null } | null | undefined, path: string): string[] {
  const out: string[] = [];
  for (const kind of ['requests', 'limits'] as const) {
    const list = spec?.resources?.[kind];
    if (list && Object.hasOwn(list, 'storage') && isFractionalBytes(list.storage)) out.push(warning(`${path}.resources.${kind}`, 'storage', list.storage));
  }
  return out;
}
