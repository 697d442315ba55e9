// The MutatingAdmissionPolicy admission plugin (mutating phase): each policy whose
// matchConstraints select the request, with each of its bindings whose matchResources select it,
// once per param: when its matchConditions hold, its mutations change the object in order, each
// evaluated against the object as the previous one left it. Failures under failurePolicy Fail
// are collected and refuse the request once every binding has run, as kube-apiserver's policy
// dispatcher does ("policy 'p' with binding 'b' denied request: ..."). A policy with
// reinvocationPolicy IfNeeded runs again in the chain's second run when the object changed after
// it, and any mutation asks for that second run (reinvocation.ts), as kube-apiserver's does.

import { deepClone, jsonEqual, type KubeObject } from '../../../../api/object.ts';
import { StatusError } from '../../../../api/status.ts';
import type { AdmissionAttributes, AdmissionDeps, AdmissionPlugin } from '../../types.ts';
import { admissionNotReady, requestName } from '../validating-admission-policy/deny.ts';
import { matchesResources, requestNamespace, type MatchResources } from '../validating-admission-policy/match-resources.ts';
import { resolveParams, type ParamRef } from '../validating-admission-policy/params.ts';
import { follow, readyWithin } from '../validating-admission-policy/policy-source.ts';
import { admissionRequest } from '../validating-admission-policy/request-input.ts';
import { inScope, matchConditionsOutcome } from '../validating-admission-policy/validate-policy.ts';
import { compileMutatingPolicy, type CompiledMutatingPolicy } from './compiled-policy.ts';
import { applyMutation, MutationError } from './mutate.ts';
import { isAdmissionConfiguration } from '../admission-configuration.ts';
import { pluginReinvocation, type PluginReinvocation } from '../../reinvocation.ts';
import { defaultMutated } from '../../defaults.ts';

export interface MutatingPolicyStore {
  policies(): Iterable<CompiledMutatingPolicy>;
  bindings(): Iterable<KubeObject>;
  synced: Promise<void>;
  stop?(): void;
}

interface BindingSpec { policyName?: string; paramRef?: ParamRef; matchResources?: MatchResources }
interface Failure { policy: string; binding: string; message: string }

export function watchedMutatingPolicyStore(deps: AdmissionDeps): MutatingPolicyStore {
  const policies = follow(deps.registry, deps.catalog, 'mutatingadmissionpolicies', compileMutatingPolicy, deps.log);
  const bindings = follow(deps.registry, deps.catalog, 'mutatingadmissionpolicybindings', o => o, deps.log);
  return {
    policies: () => policies.items.values(),
    bindings: () => bindings.items.values(),
    synced: Promise.all([policies.synced, bindings.synced]).then(() => undefined),
    stop() { policies.stop(); bindings.stop(); },
  };
}

/** the admission chain hands the store's own object to plugins: a mutation changes it in place */
function replaceContents(target: KubeObject, next: KubeObject): void {
  if (target === next) return;
  for (const k of Object.keys(target)) delete (target as Record<string, unknown>)[k];
  Object.assign(target, next);
}

function refusal(a: AdmissionAttributes, failures: Failure[]): StatusError {
  const messages = failures.map(f => `policy '${f.policy}' with binding '${f.binding}' denied request: ${f.message}`);
  const name = requestName(a);
  const { group, resource } = a.resource;
  const qualified = group ? `${resource}.${group}` : resource;
  return new StatusError(403, 'Forbidden', `${qualified} "${name}" is forbidden: ${messages[0]}`, {
    name, ...(group ? { group } : {}), kind: resource, causes: messages.map(message => ({ message })),
  });
}

export function mutatingAdmissionPolicy(deps: AdmissionDeps, store: MutatingPolicyStore = watchedMutatingPolicyStore(deps)): AdmissionPlugin & { stop(): void } {
  return {
    name: 'MutatingAdmissionPolicy',
    stop() { store.stop?.(); },
    async admit(a) {
      if (isAdmissionConfiguration(a.resource.group, a.resource.resource)) return;
      if (!a.object || a.operation === 'DELETE') return;
      // until the policies have been read, kube-apiserver refuses rather than skip them
      if (!await readyWithin(store.synced, 10_000)) throw admissionNotReady(a);
      const policies = [...store.policies()].sort((x, y) => x.name.localeCompare(y.name));
      if (!policies.length) return;
      const bindings = [...store.bindings()];
      const again = pluginReinvocation('MutatingAdmissionPolicy', a.reinvocation);
      again.begin(a.object);
      try {
        await run(a, policies, bindings, again);
      } finally {
        again.end(a.object);
      }
    },
  };

  async function run(a: AdmissionAttributes, policies: CompiledMutatingPolicy[], bindings: KubeObject[], again: PluginReinvocation): Promise<void> {
    const { read: readNamespace, ctx } = requestNamespace(deps, a);
    const failures: Failure[] = [];
    // a mutation was applied in this run, changing the object or not
    let dirty = false;
    for (const p of policies) {
      if (!await matchesResources(p.matchConstraints, a, ctx, true)) continue;
      for (const b of bindings.filter(x => (x.spec as BindingSpec | undefined)?.policyName === p.name).sort((x, y) => x.metadata.name!.localeCompare(y.metadata.name!))) {
        const spec = b.spec as BindingSpec;
        const binding = b.metadata.name ?? '';
        if (!await matchesResources(spec.matchResources, a, ctx, false)) continue;
        const fail = (message: string) => { if (p.failurePolicy !== 'Ignore') failures.push({ policy: p.name, binding, message }); };
        let params: Array<KubeObject | null>;
        try {
          params = await resolveParams(deps.registry, deps.catalog, p, spec.paramRef, a.namespace);
        } catch (err) {
          fail(`failed to configure binding: ${(err as Error).message}`);
          continue;
        }
        const nsObject = a.resource.group === '' && a.resource.resource === 'namespaces' ? null : await readNamespace();
        for (const param of params) {
          const inputs = () => ({ object: a.object, oldObject: a.oldObject ?? null, params: param, request: admissionRequest(a), namespaceObject: nsObject });
          const outcome = inScope(p, inputs(), run => matchConditionsOutcome(p.matchConditions, p.failurePolicy, run));
          if (outcome === 'skip') continue;
          if (outcome !== 'match') { fail(outcome.error); continue; }
          const key = JSON.stringify([p.name, binding, param?.metadata.namespace ?? '', param?.metadata.name ?? '']);
          if (!again.shouldCall(key)) continue;
          const before = deepClone(a.object!);
          for (const m of p.mutations) {
            try {
              const result = inScope(p, inputs(), run => run(m.expression));
              replaceContents(a.object!, applyMutation(m.patchType, result, a.object!, a.resource));
              defaultMutated(a.resource, a.subresource, a.object);
              dirty = true;
            } catch (err) {
              if (!(err instanceof MutationError)) throw err;
              fail(err.message);
              break;
            }
          }
          if (!jsonEqual(before, a.object)) again.changed();
          again.invoked(key, p.reinvocationPolicy);
        }
      }
    }
    if (dirty) again.changed();
    if (failures.length) throw refusal(a, failures);
  }
}
