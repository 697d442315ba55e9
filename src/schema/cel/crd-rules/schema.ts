// The part of a CRD's structural schema (apiextensions.k8s.io/v1 JSONSchemaProps) that CEL
// validation rules read, and the limits Kubernetes' apiextensions-apiserver applies to them.

/** one entry of `x-kubernetes-validations` */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  /** FieldValueInvalid (default), FieldValueForbidden, FieldValueRequired or FieldValueDuplicate */
  reason?: string;
  /** a JSON path under the node declaring the rule, where the error is reported */
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface RuleSchema {
  type?: string;
  format?: string;
  nullable?: boolean;
  properties?: Record<string, RuleSchema>;
  items?: RuleSchema;
  additionalProperties?: RuleSchema | boolean;
  allOf?: RuleSchema[];
  'x-kubernetes-validations'?: ValidationRule[];
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  enum?: unknown[];
  required?: string[];
  default?: unknown;
}

/** the schema of a map's values, when the node is a map (additionalProperties as a schema) */
export function mapValues(s: RuleSchema): RuleSchema | undefined {
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** celconfig.PerCallLimit: the runtime cost one expression may spend in one evaluation */
export const perCallLimit = 1_000_000;
/** celconfig.RuntimeCELCostBudget: what all rules together may spend validating one object */
export const runtimeCostBudget = 10_000_000;
/** the StaticEstimatedCostLimit: the most one rule's estimated cost may be, times how often it can run */
export const staticEstimatedCostLimit = 10_000_000;
/** the StaticEstimatedCRDCostLimit: the most all of a schema's rules may be estimated to cost together */
export const staticEstimatedCrdCostLimit = 100_000_000;
/** celconfig.MaxRequestSizeBytes: the largest object whose size bounds unbounded lists, maps and strings */
export const maxRequestSizeBytes = 3 * 1024 * 1024;
/** celconfig.MaxEvaluatedMessageExpressionSizeBytes */
export const maxMessageExpressionBytes = 5 * 1024;

export const ruleReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

/** what error messages name a rule by: its message if it has one, else its text (both trimmed) */
export function ruleErrorString(r: ValidationRule): string {
  return r.message ? r.message.trim() : r.rule.trim();
}
