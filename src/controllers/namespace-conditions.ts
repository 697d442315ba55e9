// The status conditions a terminating namespace carries while it is emptied, with the types,
// reasons and message shapes Kubernetes uses (users read them in `kubectl get ns -o yaml` to
// see why a namespace is stuck).

import type { ContentReport } from './namespace-content.ts';

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  lastTransitionTime?: string;
}

function cond(type: string, ok: boolean, okReason: string, okMessage: string, badReason: string, badMessage: () => string): NamespaceCondition {
  return ok ? { type, status: 'False', reason: okReason, message: okMessage } : { type, status: 'True', reason: badReason, message: badMessage() };
}

const counted = (m: Map<string, number>, word: string) =>
  [...m.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${word} ${n} resource instances`).join(', ');

export function deletionConditions(report: ContentReport, discoveryFailures: string[]): NamespaceCondition[] {
  return [
    cond('NamespaceDeletionDiscoveryFailure', discoveryFailures.length === 0, 'ResourcesDiscovered', 'All resources successfully discovered',
      'DiscoveryFailed', () => `Discovery failed for some groups, ${discoveryFailures.length} failing: ${discoveryFailures.join(', ')}`),
    cond('NamespaceDeletionGroupVersionParsingFailure', true, 'ParsedGroupVersions', 'All legacy kube types successfully parsed', '', () => ''),
    cond('NamespaceDeletionContentFailure', report.failures.length === 0, 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization',
      'ContentDeletionFailed', () => `Failed to delete all resource types, ${report.failures.length} remaining: ${report.failures.join(', ')}`),
    cond('NamespaceContentRemaining', report.remaining.size === 0, 'ContentRemoved', 'All content successfully removed',
      'SomeResourcesRemain', () => `Some resources are remaining: ${counted(report.remaining, 'has')}`),
    cond('NamespaceFinalizersRemaining', report.finalizers.size === 0, 'ContentHasNoFinalizers', 'All content-preserving finalizers finished',
      'SomeFinalizersRemain', () => `Some content in the namespace has finalizers remaining: ${counted(report.finalizers, 'in')}`),
  ];
}

/**
 * The namespace's conditions with these set: a condition keeps its lastTransitionTime unless its
 * status flips. Returns undefined when nothing would change, so no write is needed.
 */
export function mergeConditions(current: NamespaceCondition[] | undefined, next: NamespaceCondition[], now: string): NamespaceCondition[] | undefined {
  const out = [...(current ?? [])];
  let changed = false;
  for (const c of next) {
    const i = out.findIndex(o => o.type === c.type);
    const old = i >= 0 ? out[i] : undefined;
    if (old && old.status === c.status && old.reason === c.reason && old.message === c.message) continue;
    changed = true;
    const merged = { ...c, lastTransitionTime: old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : now };
    if (i >= 0) out[i] = merged; else out.push(merged);
  }
  return changed ? out : undefined;
}
