// Mutating- and ValidatingWebhookConfigurations: Kubernetes' v1 defaults (failurePolicy Fail,
// matchPolicy Equivalent, empty selectors, a 10 s timeout, rules of every scope, service port
// 443, reinvocationPolicy Never), a generation that counts changes to the webhooks, and the
// checks of validation/webhook-configuration.ts.

import type { KubeObject } from '../../api/object.ts';
import { strategyWith, type Strategy } from '../strategy.ts';
import { updateOptions, validateWebhookConfiguration } from '../validation/webhook-configuration.ts';

type Json = Record<string, any>;

export function defaultWebhooks(obj: KubeObject, mutating: boolean): void {
  for (const w of (obj.webhooks ?? []) as Json[]) {
    w.failurePolicy ??= 'Fail';
    w.matchPolicy ??= 'Equivalent';
    w.namespaceSelector ??= {};
    w.objectSelector ??= {};
    w.timeoutSeconds ??= 10;
    if (mutating) w.reinvocationPolicy ??= 'Never';
    for (const r of (w.rules ?? []) as Json[]) r.scope ??= '*';
    if (w.clientConfig?.service) w.clientConfig.service.port ??= 443;
  }
}

function strategy(mutating: boolean): Strategy {
  return strategyWith({
    tracksGeneration: true,
    prepareForCreate(obj) { defaultWebhooks(obj, mutating); },
    prepareForUpdate(obj) { defaultWebhooks(obj, mutating); },
    validateCreate(obj) {
      return validateWebhookConfiguration(obj, { mutating, requireNoSideEffects: true, requireRecognizedReviewVersion: true, requireUniqueNames: true, checkMatchConditions: true });
    },
    validateUpdate(obj, old) { return validateWebhookConfiguration(obj, updateOptions(obj, old, mutating)); },
  });
}

export const mutatingWebhookConfigurationStrategy = strategy(true);
export const validatingWebhookConfigurationStrategy = strategy(false);
