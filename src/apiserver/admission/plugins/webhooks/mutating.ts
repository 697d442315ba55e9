// MutatingAdmissionWebhook: the mutating webhooks, one after another in configuration order,
// each seeing the object as the ones before left it. A change asks the chain for a second run
// of the mutating phase, in which only the webhooks with reinvocationPolicy IfNeeded that ran
// before a later change are called again (reinvocation.ts).

import type { KubeObject } from '../../../../api/object.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../../types.ts';
import { callHook } from './call.ts';
import { callDeps, matchContext, webhooksApply, type WebhookPluginDeps } from './context.ts';
import { CallingWebhookError, failClosed } from './errors.ts';
import { invocationFor } from './invocation.ts';
import { applyWebhookPatch } from './patch.ts';
import { versioned } from './call.ts';
import { watchedSource, type HookSource } from './source.ts';
import { pluginReinvocation, type PluginReinvocation } from '../../reinvocation.ts';
import { defaultMutated } from '../../defaults.ts';

const mutationAnnotation = 'mutation.webhook.admission.k8s.io/';
const patchAnnotation = 'patch.webhook.admission.k8s.io/';
const failedOpenAnnotation = 'failed-open.mutation.webhook.admission.k8s.io/';

/** replaces the attributes' object in place, so whoever holds it sees the change */
function replaceObject(a: AdmissionAttributes, next: KubeObject): void {
  const target = a.object!;
  for (const k of Object.keys(target)) delete (target as Record<string, unknown>)[k];
  Object.assign(target, next);
}

export interface MutatingWebhookPlugin extends AdmissionPlugin { source: HookSource }

export function mutatingWebhookPlugin(deps: WebhookPluginDeps, source?: HookSource): MutatingWebhookPlugin {
  const hooks = source ?? watchedSource(deps.registry, deps.catalog, 'mutatingwebhookconfigurations', deps.log);
  const call = callDeps(deps);

  async function run(a: AdmissionAttributes, again: PluginReinvocation): Promise<void> {
    const n = again.isReinvoke ? 1 : 0;
    const ctx = matchContext(deps, a);
    const all = hooks.hooks();
    for (let i = 0; i < all.length; i++) {
      const hook = all[i]!;
      const inv = await invocationFor(hook, a, ctx);
      if (!inv) continue;
      // a webhook is never called for the first time in the second run
      if (!again.shouldCall(hook.uid)) continue;
      const name = hook.spec.name;
      let changed = false;
      try {
        const sent = versioned(a.object, inv);
        const result = await callHook(a, inv, true, call);
        const out = applyWebhookPatch(name, result, sent, a.object?.apiVersion);
        if (out) a.annotate(`${patchAnnotation}round_${n}_index_${i}`, JSON.stringify({ configuration: hook.configurationName, webhook: name, patch: JSON.parse(result.patch!.toString('utf8')), patchType: result.patchType }));
        if (out?.changed) { replaceObject(a, out.object); defaultMutated(a.resource, a.subresource, a.object); changed = true; }
      } catch (err) {
        if (!(err instanceof CallingWebhookError)) throw err;
        if (hook.failurePolicy !== 'Ignore') throw failClosed(err);
        deps.log.warn('Failed calling webhook, failing open', { webhook: name, err: err.message });
        a.annotate(`${failedOpenAnnotation}round_${n}_index_${i}`, name);
      } finally {
        a.annotate(`${mutationAnnotation}round_${n}_index_${i}`, JSON.stringify({ configuration: hook.configurationName, webhook: name, mutated: changed }));
      }
      if (changed) again.changed();
      again.invoked(hook.uid, hook.spec.reinvocationPolicy);
    }
  }

  return {
    name: 'MutatingAdmissionWebhook',
    source: hooks,
    async admit(a) {
      if (!webhooksApply(a)) return;
      await hooks.synced;
      if (!hooks.hooks().length) return;
      const again = pluginReinvocation('MutatingAdmissionWebhook', a.reinvocation);
      again.begin(a.object);
      try {
        await run(a, again);
      } finally {
        again.end(a.object);
      }
    },
  };
}
