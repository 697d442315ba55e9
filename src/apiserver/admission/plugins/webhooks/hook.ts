// One webhook of a Mutating- or ValidatingWebhookConfiguration, read once from the stored
// object (defaults already applied by the registry's strategy) into what the dispatcher asks:
// its parsed selectors and compiled match conditions are kept, as kube-apiserver keeps them
// per configuration revision, so each request only evaluates them.

import { labelSelectorFromObject, type LabelSelector } from '../../../../api/selectors/label.ts';
import { compileMatchCondition, type MatchConditionProgram } from './match-condition.ts';

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  caBundle?: string;
}

/** the fields shared by both kinds of webhook, as the API spells them */
export interface WebhookSpec {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: 'Fail' | 'Ignore';
  matchPolicy?: 'Exact' | 'Equivalent';
  namespaceSelector?: unknown;
  objectSelector?: unknown;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  matchConditions?: Array<{ name: string; expression: string }>;
  reinvocationPolicy?: 'Never' | 'IfNeeded';
}

export interface Hook {
  /** unique across configurations: which configuration and which of its webhooks */
  uid: string;
  configurationName: string;
  spec: WebhookSpec;
  failurePolicy: 'Fail' | 'Ignore';
  namespaceSelector: LabelSelector | Error;
  objectSelector: LabelSelector | Error;
  conditions: Array<{ name: string; program: MatchConditionProgram | Error }>;
}

function selector(raw: unknown): LabelSelector | Error {
  try {
    // an absent selector in a stored configuration means "everything", as its default {} does
    return labelSelectorFromObject(raw ?? {});
  } catch (err) {
    return err as Error;
  }
}

export function hookOf(configurationName: string, index: number, spec: WebhookSpec): Hook {
  return {
    uid: `${configurationName}/${spec.name}/${index}`,
    configurationName,
    spec,
    failurePolicy: spec.failurePolicy ?? 'Fail',
    namespaceSelector: selector(spec.namespaceSelector),
    objectSelector: selector(spec.objectSelector),
    conditions: (spec.matchConditions ?? []).map(c => ({ name: c.name, program: compileMatchCondition(c.expression) })),
  };
}
