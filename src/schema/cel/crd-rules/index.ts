// CEL validation rules of CRD schemas (`x-kubernetes-validations`): what CRD serving calls on
// each create and update of a custom resource, and what CRD validation calls on the CRD.

export { validateCelRules, validateCelRulesDetailed, type CelValidationResult } from './validate.ts';
export { compileCelRules } from './check.ts';
export type { RuleSchema, ValidationRule } from './schema.ts';
