// The two webhook plugins as the admission table builds them, from the framework's deps.

import { silentLogger } from '../../../../api/log.ts';
import type { AdmissionDeps, AdmissionPlugin } from '../../types.ts';
import type { WebhookPluginDeps } from './context.ts';
import { mutatingWebhookPlugin } from './mutating.ts';
import { validatingWebhookPlugin } from './validating.ts';

function webhookDeps(deps: AdmissionDeps): WebhookPluginDeps {
  return { registry: deps.registry, catalog: deps.catalog, authorizer: deps.authorizer, log: deps.log ?? silentLogger };
}

export function mutatingAdmissionWebhook(deps: AdmissionDeps): AdmissionPlugin {
  return mutatingWebhookPlugin(webhookDeps(deps));
}

export function validatingAdmissionWebhook(deps: AdmissionDeps): AdmissionPlugin {
  return validatingWebhookPlugin(webhookDeps(deps));
}
