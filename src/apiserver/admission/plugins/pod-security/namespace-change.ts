// A namespace whose enforce level changes is allowed, but the writer hears which pods already in
// it the new level would refuse: one warning naming the level, then one per distinct set of
// reasons ("a: reason, reason", "a (and 2 other pods): ..."), as kube-apiserver warns.

import type { AdmissionAttributes, AdmissionDeps } from '../../types.ts';
import type { CoreV1PodSpec } from '../../../../schema/generated/types.ts';
import { violations } from './checks.ts';
import { policyName, policyOf } from './policy.ts';
import type { PodSecurityConfig } from './config.ts';

export async function existingPodWarnings(deps: AdmissionDeps, a: AdmissionAttributes, config: PodSecurityConfig): Promise<string[]> {
  const now = policyOf(a.object?.metadata?.labels, config.defaults).enforce;
  const before = policyOf(a.oldObject?.metadata?.labels, config.defaults).enforce;
  if (now.level === 'privileged' || policyName(now) === policyName(before)) return [];
  const ns = a.name;
  const pods = (await deps.registry.list(deps.catalog.lookup('', 'v1', 'pods')!, ns)).items;
  // pods with the same reasons are told together, in the order first met
  const byReasons = new Map<string, string[]>();
  for (const p of pods) {
    const spec = (p as { spec?: CoreV1PodSpec }).spec ?? { containers: [] };
    // pods of an exempt runtime class were never checked, and are not now
    if (spec.runtimeClassName && config.exemptRuntimeClasses.has(spec.runtimeClassName)) continue;
    const vs = violations(now.level, spec);
    if (!vs.length) continue;
    const key = vs.map(v => v.reason).join(', ');
    byReasons.set(key, [...(byReasons.get(key) ?? []), p.metadata.name!]);
  }
  if (!byReasons.size) return [];
  const out = [`existing pods in namespace ${JSON.stringify(ns)} violate the new PodSecurity enforce level ${JSON.stringify(policyName(now))}`];
  for (const [reasons, names] of byReasons) {
    const others = names.length - 1;
    out.push(`${names[0]}${others ? ` (and ${others} other ${others === 1 ? 'pod' : 'pods'})` : ''}: ${reasons}`);
  }
  return out;
}
