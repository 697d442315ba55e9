// What the rest of orch uses of the CEL environment, in one module so that it can be loaded on
// first use (on-demand.ts): CEL and RE2 are megabytes of code that a cluster without admission
// policies, webhook matchConditions or CRD rules never runs.

export { CelCompileError, compileCel, isCelError } from './compile.ts';
export { celError } from '@bufbuild/cel';
export { admissionPolicyVariables } from './environment.ts';
export { withAuthorizer } from './authorizer.ts';
export { celTypeName, fromCelValue, toCelInput } from './values.ts';
export { renderProblem, undefinedFields } from './field-check.ts';
export { compileCelRules, validateCelRules, validateCelRulesDetailed } from './crd-rules/index.ts';
export type { RuleSchema } from './crd-rules/index.ts';
