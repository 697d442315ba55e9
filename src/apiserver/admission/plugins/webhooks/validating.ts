// ValidatingAdmissionWebhook: every validating webhook that applies, called at once; the
// first refusal or failure (under failurePolicy Fail) to come back refuses the request.

import type { AdmissionPlugin } from '../../types.ts';
import { callHook } from './call.ts';
import { callDeps, matchContext, webhooksApply, type WebhookPluginDeps } from './context.ts';
import { CallingWebhookError, failClosed } from './errors.ts';
import { invocationFor, type Invocation } from './invocation.ts';
import { watchedSource, type HookSource } from './source.ts';

const failedOpenAnnotation = 'failed-open.validating.webhook.admission.k8s.io/';

export interface ValidatingWebhookPlugin extends AdmissionPlugin { source: HookSource }

export function validatingWebhookPlugin(deps: WebhookPluginDeps, source?: HookSource): ValidatingWebhookPlugin {
  const hooks = source ?? watchedSource(deps.registry, deps.catalog, 'validatingwebhookconfigurations', deps.log);
  const call = callDeps(deps);
  return {
    name: 'ValidatingAdmissionWebhook',
    source: hooks,
    async validate(a) {
      if (!webhooksApply(a)) return;
      await hooks.synced;
      const all = hooks.hooks();
      if (!all.length) return;
      const ctx = matchContext(deps, a);
      // which webhooks apply is settled first, in order: a selector or condition error stops the request before any call
      const calls: Array<[number, Invocation]> = [];
      for (let i = 0; i < all.length; i++) {
        const inv = await invocationFor(all[i]!, a, ctx);
        if (inv) calls.push([i, inv]);
      }
      if (!calls.length) return;
      let first: Error | undefined;
      await Promise.all(calls.map(async ([i, inv]) => {
        try {
          await callHook(a, inv, false, call);
        } catch (err) {
          let refusal = err as Error;
          if (err instanceof CallingWebhookError) {
            if (inv.hook.failurePolicy === 'Ignore') {
              deps.log.warn('Failed calling webhook, failing open', { webhook: inv.hook.spec.name, err: err.message });
              a.annotate(`${failedOpenAnnotation}round_0_index_${i}`, inv.hook.spec.name);
              return;
            }
            refusal = failClosed(err);
          }
          first ??= refusal;
        }
      }));
      if (first) throw first;
    },
  };
}
