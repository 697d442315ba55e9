// The ValidatingAdmissionPolicy admission plugin: every policy whose matchConstraints select the
// request, with each of its bindings whose matchResources select it, is evaluated once per param;
// each failed validation is enforced as the binding's validationActions say (Deny refuses,
// Warn adds a Warning header, Audit records the validation_failure audit annotation). All
// bindings are evaluated before the first denial refuses the request, as kube-apiserver does.

import type { KubeObject } from '../../../../api/object.ts';
import type { AdmissionAttributes, AdmissionDeps, AdmissionPlugin } from '../../types.ts';
import { compilePolicy, type CompiledPolicy } from './compiled-policy.ts';
import { admissionNotReady, policyDenial } from './deny.ts';
import { matchesResources, requestNamespace, type MatchResources } from './match-resources.ts';
import { ConfigurationError, paramResource, resolveParams, type ParamRef } from './params.ts';
import { follow, readyWithin } from './policy-source.ts';
import { admissionRequest } from './request-input.ts';
import { validatePolicy, type PolicyDecision } from './validate-policy.ts';
import { recordTypeChecking } from './type-checking.ts';
import { isAdmissionConfiguration } from '../admission-configuration.ts';
import { celAuthorizer } from '../cel-authorizer.ts';

export const validationFailureAnnotation = 'validation.policy.admission.k8s.io/validation_failure';

/** where policies and bindings come from: the API's watch, or a test's fixed set */
export interface PolicyStore {
  policies(): Iterable<CompiledPolicy>;
  bindings(): Iterable<KubeObject>;
  synced: Promise<void>;
  stop?(): void;
}

interface BindingSpec { policyName?: string; paramRef?: ParamRef; matchResources?: MatchResources; validationActions?: string[] }

export function watchedPolicyStore(deps: AdmissionDeps): PolicyStore {
  const policies = follow(deps.registry, deps.catalog, 'validatingadmissionpolicies', o => {
    try {
      recordTypeChecking(o, deps.registry, deps.catalog, deps.log);
    } catch (err) {
      // status is advice; the policy is enforced whatever its check says
      deps.log?.warn('policy type checking failed', { policy: o.metadata.name, err: (err as Error).message });
    }
    return compilePolicy(o);
  }, deps.log);
  const bindings = follow(deps.registry, deps.catalog, 'validatingadmissionpolicybindings', o => o, deps.log);
  return {
    policies: () => policies.items.values(),
    bindings: () => bindings.items.values(),
    synced: Promise.all([policies.synced, bindings.synced]).then(() => undefined),
    stop() { policies.stop(); bindings.stop(); },
  };
}

export function validatingAdmissionPolicy(deps: AdmissionDeps, store: PolicyStore = watchedPolicyStore(deps)): AdmissionPlugin & { stop(): void } {
  return {
    name: 'ValidatingAdmissionPolicy',
    /** ends the watches (a server's shutdown, a test's end) */
    stop() { store.stop?.(); },
    async validate(a) {
      if (isAdmissionConfiguration(a.resource.group, a.resource.resource)) return;
      // until the policies have been read, kube-apiserver refuses rather than skip them
      if (!await readyWithin(store.synced, 10_000)) throw admissionNotReady(a);
      const policies = [...store.policies()].sort((x, y) => x.name.localeCompare(y.name));
      if (!policies.length) return;
      const bindings = [...store.bindings()];
      const { read: readNamespace, ctx } = requestNamespace(deps, a);
      const request = admissionRequest(a);
      const authorizer = celAuthorizer(deps.authorizer, a.user);
      const requestResource = { group: a.resource.group, resource: a.resource.resource, subresource: a.subresource, namespace: a.namespace, name: a.name };
      let denial: { policy: string; binding?: string; decision: PolicyDecision } | undefined;
      for (const p of policies) {
        if (!await matchesResources(p.matchConstraints, a, ctx, true)) continue;
        // a paramKind that names nothing served misconfigures the policy, whatever its bindings
        const kindError = p.paramKind ? paramResource(deps.catalog, p.paramKind) : undefined;
        if (typeof kindError === 'string') {
          if (p.failurePolicy !== 'Ignore') denial ??= { policy: p.name, decision: { action: 'deny', evaluation: 'error', message: `failed to configure policy: ${kindError}` } };
          continue;
        }
        const annotations = new Map<string, string[]>();
        for (const b of bindings.filter(x => (x.spec as BindingSpec | undefined)?.policyName === p.name).sort((x, y) => x.metadata.name!.localeCompare(y.metadata.name!))) {
          const spec = b.spec as BindingSpec;
          const binding = b.metadata.name ?? '';
          if (!await matchesResources(spec.matchResources, a, ctx, false)) continue;
          let params: Array<KubeObject | null>;
          try {
            params = await resolveParams(deps.registry, deps.catalog, p, spec.paramRef, a.namespace);
          } catch (err) {
            if (p.failurePolicy === 'Ignore') continue;
            const why = err instanceof ConfigurationError ? err.message : (err as Error).message;
            denial ??= { policy: p.name, binding, decision: { action: 'deny', evaluation: 'error', message: `failed to configure binding: ${why}` } };
            continue;
          }
          const nsObject = a.resource.group === '' && a.resource.resource === 'namespaces' ? null : await readNamespace();
          for (const param of params) {
            const result = validatePolicy(p, {
              object: a.operation === 'DELETE' ? null : a.object ?? null, oldObject: a.oldObject ?? null, params: param, request,
              namespaceObject: nsObject, authorizer, requestResource,
            });
            if (!result.matched) continue;
            for (const d of result.decisions) {
              if (d.action !== 'deny') continue;
              for (const action of spec.validationActions ?? []) {
                if (action === 'Deny') denial ??= { policy: p.name, binding, decision: d };
                else if (action === 'Warn') a.warn(`Validation failed for ValidatingAdmissionPolicy '${p.name}' with binding '${binding}': ${d.message}`);
                else if (action === 'Audit') auditFailure(a, p.name, binding, d, spec.validationActions ?? []);
              }
            }
            for (const an of result.annotations) {
              if (an.error) { denial ??= { policy: p.name, binding, decision: { action: 'deny', evaluation: 'error', message: an.error } }; continue; }
              const values = annotations.get(an.key) ?? [];
              if (!values.includes(an.value!)) values.push(an.value!);
              annotations.set(an.key, values);
            }
          }
        }
        for (const [key, values] of annotations) a.annotate(`${p.name}/${key}`, values.join(', '));
      }
      if (denial) throw policyDenial(a, 'ValidatingAdmissionPolicy', denial.policy, denial.binding, denial.decision.message, denial.decision.reason);
    },
  };
}

const audited = new WeakSet<AdmissionAttributes>();

/** the first failure of a request is the one recorded (annotations are never overwritten) */
function auditFailure(a: AdmissionAttributes, policy: string, binding: string, d: PolicyDecision, actions: string[]): void {
  if (audited.has(a)) return;
  audited.add(a);
  // the fields in the order kube-apiserver's ValidationFailureValue marshals them
  a.annotate(validationFailureAnnotation, JSON.stringify([{ message: d.message, policy, binding, expressionIndex: d.index ?? 0, validationActions: actions }]));
}
