// PodSecurity: pods checked against the Pod Security Standards their namespace's labels ask
// for (policy.ts, checks.ts). enforce refuses a pod that violates its level; warn answers with
// a Warning; audit leaves an audit annotation. Workloads' pod templates are warned about and
// audited, never refused. Changing a namespace's enforce label warns about the pods already
// there that the new level would refuse.

import type { KubeObject } from '../../../api/object.ts';
import type { CoreV1PodSpec } from '../../../schema/generated/types.ts';
import type { AdmissionAttributes, AdmissionDeps, AdmissionPlugin } from '../types.ts';
import { admissionForbidden } from '../errors.ts';
import { violations, type Violation } from './pod-security/checks.ts';
import { policyName, policyOf, type LevelVersion, type Policy } from './pod-security/policy.ts';
import { existingPodWarnings } from './pod-security/namespace-change.ts';
import { podSecurityConfig, type PodSecurityConfig } from './pod-security/config.ts';

/** where each workload kind keeps its pod template's spec */
const templates: Record<string, (o: KubeObject) => CoreV1PodSpec | undefined> = {
  'podtemplates.': o => (o as { template?: { spec?: CoreV1PodSpec } }).template?.spec,
  'replicationcontrollers.': o => spec(o)?.template?.spec,
  'replicasets.apps': o => spec(o)?.template?.spec,
  'deployments.apps': o => spec(o)?.template?.spec,
  'statefulsets.apps': o => spec(o)?.template?.spec,
  'daemonsets.apps': o => spec(o)?.template?.spec,
  'jobs.batch': o => spec(o)?.template?.spec,
  'cronjobs.batch': o => (spec(o) as { jobTemplate?: { spec?: { template?: { spec?: CoreV1PodSpec } } } } | undefined)?.jobTemplate?.spec?.template?.spec,
};
function spec(o: KubeObject): { template?: { spec?: CoreV1PodSpec } } | undefined {
  return (o as { spec?: { template?: { spec?: CoreV1PodSpec } } }).spec;
}

const described = (vs: Violation[]) => vs.map(v => `${v.reason} (${v.detail})`).join(', ');

/** why a request is not checked at all (the audit annotation's value), if it is exempt */
function exemption(config: PodSecurityConfig, a: AdmissionAttributes, podSpec: CoreV1PodSpec | undefined): string | undefined {
  if (config.exemptNamespaces.has(a.namespace)) return 'namespace';
  if (config.exemptUsers.has(a.user.name)) return 'user';
  if (podSpec?.runtimeClassName && config.exemptRuntimeClasses.has(podSpec.runtimeClassName)) return 'runtimeClass';
  return undefined;
}

export function podSecurity(deps: AdmissionDeps): AdmissionPlugin {
  const nsInfo = deps.catalog.lookup('', 'v1', 'namespaces')!;
  const config = podSecurityConfig(deps.pluginConfig?.['PodSecurity']);
  async function policyFor(namespace: string): Promise<Policy | undefined> {
    try {
      return policyOf((await deps.registry.get(nsInfo, undefined, namespace, undefined, true)).metadata.labels, config.defaults);
    } catch {
      return undefined; // NamespaceLifecycle answers for a missing namespace
    }
  }
  /**
   * one pod spec against the namespace's policy: a pod is refused by the enforce level; a
   * workload's template only draws warnings, for the enforce level and the warn level both
   */
  function judge(a: AdmissionAttributes, policy: Policy, podSpec: CoreV1PodSpec, isPod: boolean): void {
    const exempt = exemption(config, a, podSpec);
    if (exempt) return a.annotate('pod-security.kubernetes.io/exempt', exempt);
    const at = (p: LevelVersion) => violations(p.level, podSpec);
    const would = (p: LevelVersion, vs: Violation[]) => `would violate PodSecurity ${JSON.stringify(policyName(p))}: ${described(vs)}`;
    a.annotate('pod-security.kubernetes.io/enforce-policy', policyName(policy.enforce));
    const enforced = at(policy.enforce);
    const audit = at(policy.audit);
    if (audit.length) a.annotate('pod-security.kubernetes.io/audit-violations', would(policy.audit, audit));
    if (enforced.length && !isPod) a.warn(would(policy.enforce, enforced));
    // the warn level says nothing the enforce level has said already
    if (policyName(policy.warn) !== policyName(policy.enforce)) {
      const warned = at(policy.warn);
      if (warned.length) a.warn(would(policy.warn, warned));
    }
    if (enforced.length && isPod) throw admissionForbidden(a, `violates PodSecurity ${JSON.stringify(policyName(policy.enforce))}: ${described(enforced)}`);
  }
  return {
    name: 'PodSecurity',
    async validate(a) {
      const gr = `${a.resource.resource}.${a.resource.group}`;
      if (gr === 'namespaces.') {
        if (a.operation !== 'UPDATE' || a.subresource) return;
        if (config.exemptNamespaces.has(a.name)) return;
        for (const w of await existingPodWarnings(deps, a, config)) a.warn(w);
        return;
      }
      if (!a.namespace || !a.object || (a.operation !== 'CREATE' && a.operation !== 'UPDATE')) return;
      if (gr === 'pods.') {
        if (!(a.subresource === '' || (a.subresource === 'ephemeralcontainers' && a.operation === 'UPDATE'))) return;
        if (a.operation === 'UPDATE' && a.subresource === '' && !significantUpdate(a.object, a.oldObject!)) return;
        const policy = await policyFor(a.namespace);
        if (policy) judge(a, policy, (a.object as { spec?: CoreV1PodSpec }).spec ?? { containers: [] }, true);
        return;
      }
      const template = templates[gr];
      if (!template || a.subresource) return;
      const podSpec = template(a.object);
      const policy = podSpec && await policyFor(a.namespace);
      if (policy && podSpec) judge(a, policy, podSpec, false);
    },
  };
}

/** an update that could change what the pod may do: images, containers, seccomp annotations */
function significantUpdate(obj: KubeObject, old: KubeObject): boolean {
  const s = (o: KubeObject) => (o as { spec?: CoreV1PodSpec }).spec ?? { containers: [] };
  const seccomp = (o: KubeObject) => JSON.stringify(Object.entries(o.metadata.annotations ?? {}).filter(([k]) => k.startsWith('seccomp.security.alpha.kubernetes.io/') || k.startsWith('container.seccomp.security.alpha.kubernetes.io/')));
  if (seccomp(obj) !== seccomp(old)) return true;
  const images = (p: CoreV1PodSpec) => JSON.stringify([(p.containers ?? []).map(c => c.image), (p.initContainers ?? []).map(c => c.image), (p.ephemeralContainers ?? []).length]);
  return images(s(obj)) !== images(s(old));
}
