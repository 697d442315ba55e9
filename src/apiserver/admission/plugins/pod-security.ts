// PodSecurity: pods checked against the Pod Security Standards their namespace's labels ask
// for (pod-security/: policy.ts the labels, registry.ts + checks/ the checks by level and
// version). enforce refuses a pod; warn answers with a Warning (only when the request is
// allowed); audit leaves an audit annotation. Workloads' pod templates are only warned about
// and audited. Namespace writes are checked in namespace-change.ts. Exempt namespaces, users
// and runtime classes (config.ts) are not checked, and the audit annotation says why.

import type { KubeObject } from '../../../api/object.ts';
import { fieldErrorMessage, internalError, type FieldError } from '../../../api/status.ts';
import { kubernetesVersion } from '../../../api/version.ts';
import type { CoreV1PodSpec } from '../../../schema/generated/types.ts';
import type { AdmissionAttributes, AdmissionDeps, AdmissionPlugin } from '../types.ts';
import { admissionForbidden } from '../errors.ts';
import { fullyPrivileged, policyName, policyOf, type Evaluated, type LevelVersion } from './pod-security/policy.ts';
import { validateNamespace } from './pod-security/namespace-change.ts';
import { podSecurityConfig } from './pod-security/config.ts';
import { forbiddenDetail, newEvaluator } from './pod-security/registry.ts';
import type { PodMeta, Violation } from './pod-security/checks/types.ts';
import { isSignificantPodUpdate, podTemplateOf } from './pod-security/pod-templates.ts';

const prefix = 'pod-security.kubernetes.io/';
/** pod subresources that cannot change what the pod may do */
const ignoredPodSubresources = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

const aggregate = (errs: FieldError[]) => {
  const msgs = [...new Set(errs.map(fieldErrorMessage))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
};

export function podSecurity(deps: AdmissionDeps): AdmissionPlugin {
  const nsInfo = deps.catalog.lookup('', 'v1', 'namespaces')!;
  const config = podSecurityConfig(deps.pluginConfig?.['PodSecurity']);
  const evaluator = newEvaluator(undefined, Number(kubernetesVersion.minor));
  const exemptUser = (a: AdmissionAttributes) => (a.user.name && config.exemptUsers.has(a.user.name) ? 'user' : undefined);
  const exemptNamespace = (a: AdmissionAttributes) => (config.exemptNamespaces.has(a.namespace) ? 'namespace' : undefined);
  const namespaceLabels = async (name: string) => (await deps.registry.get(nsInfo, undefined, name, undefined, true)).metadata.labels;

  /** one pod (enforce) or pod template (no enforce) against the namespace's policy */
  function evaluatePod(a: AdmissionAttributes, ns: Evaluated, meta: PodMeta, spec: CoreV1PodSpec, enforce: boolean): void {
    const rc = spec.runtimeClassName;
    if (rc && config.exemptRuntimeClasses.has(rc)) return a.annotate(`${prefix}exempt`, 'runtimeClass');
    if (ns.errors.length) a.annotate(`${prefix}error`, `Failed to parse policy: ${aggregate(ns.errors)}`);
    const results = new Map<string, Violation[]>();
    const at = (lv: LevelVersion) => {
      const key = policyName(lv);
      if (!results.has(key)) results.set(key, evaluator.evaluate(lv, meta, spec));
      return results.get(key)!;
    };
    const { enforce: e, audit, warn } = ns.policy;
    let refusal: Error | undefined;
    if (enforce) {
      a.annotate(`${prefix}enforce-policy`, policyName(e));
      const vs = at(e);
      if (vs.length) refusal = admissionForbidden(a, `violates PodSecurity ${JSON.stringify(policyName(e))}: ${forbiddenDetail(vs)}`);
    }
    const audited = at(audit);
    if (audited.length) a.annotate(`${prefix}audit-violations`, `would violate PodSecurity ${JSON.stringify(policyName(audit))}: ${forbiddenDetail(audited)}`);
    if (refusal) throw refusal;
    const warned = at(warn);
    if (warned.length) a.warn(`would violate PodSecurity ${JSON.stringify(policyName(warn))}: ${forbiddenDetail(warned)}`);
  }

  async function validatePod(a: AdmissionAttributes): Promise<void> {
    if (ignoredPodSubresources.has(a.subresource)) return;
    const exempt = exemptNamespace(a) ?? exemptUser(a);
    if (exempt) return a.annotate(`${prefix}exempt`, exempt);
    let labels: Record<string, string> | undefined;
    try {
      labels = await namespaceLabels(a.namespace);
    } catch (err) {
      const e = internalError(`failed to lookup namespace ${JSON.stringify(a.namespace)}`);
      a.annotate(`${prefix}error`, `${e.message}: ${err instanceof Error ? err.message : String(err)}`);
      throw e;
    }
    const ns = policyOf(labels, config.defaults);
    if (!ns.errors.length && fullyPrivileged(ns.policy)) return a.annotate(`${prefix}enforce-policy`, 'privileged:latest');
    const pod = a.object as KubeObject & { spec?: CoreV1PodSpec };
    if (a.operation === 'UPDATE' && !isSignificantPodUpdate(pod, a.oldObject as typeof pod)) return;
    evaluatePod(a, ns, pod.metadata, pod.spec ?? { containers: [] }, true);
  }

  async function validateWorkload(a: AdmissionAttributes): Promise<void> {
    if (a.subresource) return;
    const exempt = exemptNamespace(a) ?? exemptUser(a);
    if (exempt) return a.annotate(`${prefix}exempt`, exempt);
    let labels: Record<string, string> | undefined;
    try {
      labels = await namespaceLabels(a.namespace);
    } catch (err) {
      return a.annotate(`${prefix}error`, `failed to lookup namespace ${JSON.stringify(a.namespace)}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const ns = policyOf(labels, config.defaults);
    if (!ns.errors.length && ns.policy.warn.level === 'privileged' && ns.policy.audit.level === 'privileged') return;
    const template = podTemplateOf(a.resource.group, a.resource.resource, a.object!);
    if (template) evaluatePod(a, ns, template.metadata ?? {}, template.spec ?? { containers: [] }, false);
  }

  return {
    name: 'PodSecurity',
    async validate(a) {
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      const { group, resource } = a.resource;
      if (group === '' && resource === 'namespaces') return validateNamespace(deps, a, config, evaluator);
      if (!a.object) return;
      if (group === '' && resource === 'pods') return validatePod(a);
      if (podTemplateOf(group, resource) !== undefined) return validateWorkload(a);
    },
  };
}
