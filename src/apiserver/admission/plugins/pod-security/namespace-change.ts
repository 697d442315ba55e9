// Writes of a namespace's Pod Security labels. Unreadable labels refuse the write (422, unless an
// update leaves the same errors as before). When the enforce level or version tightens, the
// write is allowed but its writer hears which pods already there the new level would refuse:
// pods are checked one per controller first, at most 3000 and for at most a second, and pods
// with the same reasons are told together under the lexically first name. An exempt namespace
// is not checked; labelling it with a non-privileged policy draws a warning instead.

import { invalid } from '../../../../api/status.ts';
import type { KubeObject } from '../../../../api/object.ts';
import type { CoreV1PodSpec } from '../../../../schema/generated/types.ts';
import type { AdmissionAttributes, AdmissionDeps } from '../../types.ts';
import type { PodSecurityConfig } from './config.ts';
import { equivalent, fullyPrivileged, labelPrefix, policyName, policyOf, sameLevelVersion, strictness, type LevelVersion, type Mode, type Policy } from './policy.ts';
import { forbiddenReasons, type Evaluator } from './registry.ts';

export const maxPodsToCheck = 3000;
export const podCheckTimeoutMs = 1000;

export async function validateNamespace(deps: AdmissionDeps, a: AdmissionAttributes, config: PodSecurityConfig, evaluator: Evaluator): Promise<void> {
  if (a.subresource || !a.object) return;
  const labels = a.object.metadata.labels;
  const now = policyOf(labels, config.defaults);
  const refuse = () => invalid('Namespace', '', a.object!.metadata.name ?? a.name, now.errors);
  if (a.operation === 'CREATE') {
    // a namespace being created has no request namespace in kube-apiserver, so the exemption
    // warning below never applies to a create
    if (now.errors.length) throw refuse();
    return;
  }
  if (a.operation !== 'UPDATE') return;
  const before = policyOf(a.oldObject?.metadata.labels, config.defaults);
  if (now.errors.length && (!before.errors.length || JSON.stringify(now.errors) !== JSON.stringify(before.errors))) throw refuse();
  const [next, prev] = [now.policy.enforce, before.policy.enforce];
  if (sameLevelVersion(next, prev) || next.level === 'privileged') return;
  if (next.version === prev.version && strictness(next.level) <= strictness(prev.level)) return;
  if (config.exemptNamespaces.has(a.name)) {
    const w = exemptNamespaceWarning(a.name, now.policy, config.defaults, labels ?? {});
    if (w) a.warn(w);
    return;
  }
  for (const w of await existingPodWarnings(deps, a.name, next, config, evaluator)) a.warn(w);
}

function exemptNamespaceWarning(ns: string, p: Policy, defaults: Policy, labels: Record<string, string>): string {
  if (fullyPrivileged(p) || (['enforce', 'warn', 'audit'] as Mode[]).every(m => equivalent(p[m], defaults[m]))) return '';
  const parts = (['enforce', 'audit', 'warn'] as Mode[])
    .filter(m => p[m].level !== 'privileged' && (`${labelPrefix}${m}` in labels || `${labelPrefix}${m}-version` in labels))
    .map(m => `${m}=${policyName(p[m])}`);
  return `namespace ${JSON.stringify(ns)} is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`;
}

/** pods of exempt runtime classes left out; then the first pod of each controller, the rest after */
function prioritized(pods: KubeObject[], config: PodSecurityConfig): KubeObject[] {
  const first: KubeObject[] = [];
  const later: KubeObject[] = [];
  const seen = new Set<string>();
  for (const p of pods) {
    const rc = (p as { spec?: CoreV1PodSpec }).spec?.runtimeClassName;
    if (rc && config.exemptRuntimeClasses.has(rc)) continue;
    const owner = (p.metadata.ownerReferences as { uid: string; controller?: boolean }[] | undefined)?.find(r => r.controller === true);
    if (!owner) first.push(p);
    else if (seen.has(owner.uid)) later.push(p);
    else { seen.add(owner.uid); first.push(p); }
  }
  return [...first, ...later];
}

export async function existingPodWarnings(deps: AdmissionDeps, ns: string, enforce: LevelVersion, config: PodSecurityConfig, evaluator: Evaluator): Promise<string[]> {
  const deadline = deps.now().getTime() + podCheckTimeoutMs;
  let pods: KubeObject[];
  try {
    pods = prioritized((await deps.registry.list(deps.catalog.lookup('', 'v1', 'pods')!, ns)).items, config);
  } catch {
    return ['failed to list pods while checking new PodSecurity enforce level'];
  }
  const total = pods.length;
  let checked = Math.min(total, maxPodsToCheck);
  const byReasons = new Map<string, { name: string; count: number }>();
  for (let i = 0; i < checked; i++) {
    const p = pods[i]!;
    const vs = evaluator.evaluate(enforce, p.metadata, (p as { spec?: CoreV1PodSpec }).spec ?? { containers: [] });
    if (vs.length) {
      const key = forbiddenReasons(vs);
      const seen = byReasons.get(key);
      const name = p.metadata.name ?? '';
      if (!seen) byReasons.set(key, { name, count: 1 });
      else { seen.count++; if (name < seen.name) seen.name = name; }
    }
    if (deps.now().getTime() >= deadline) { checked = i + 1; break; }
  }
  const out: string[] = [];
  if (checked < total) out.push(`new PodSecurity enforce level only checked against the first ${checked} of ${total} existing pods`);
  if (byReasons.size) out.push(`existing pods in namespace ${JSON.stringify(ns)} violate the new PodSecurity enforce level ${JSON.stringify(policyName(enforce))}`);
  const lines = [...byReasons].map(([reasons, { name, count }]) =>
    count === 1 ? `${name}: ${reasons}` : `${name} (and ${count - 1} other ${count === 2 ? 'pod' : 'pods'}): ${reasons}`);
  return [...out, ...lines.sort()];
}
