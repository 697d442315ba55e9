// Cost and size estimates as cel-go's checker keeps them: a least and a most, saturating at
// uint64's largest value, with the arithmetic its estimator uses.

export interface Estimate { min: number; max: number }

/** uint64's largest value, where cel-go's estimates saturate */
export const costCeiling = 18446744073709551615;
export const unknown: Estimate = { min: 0, max: costCeiling };
export const fixed = (n: number): Estimate => ({ min: n, max: n });
export const sat = (n: number) => Math.min(n, costCeiling);
export const add = (a: Estimate, b: Estimate): Estimate => ({ min: sat(a.min + b.min), max: sat(a.max + b.max) });
export const mul = (a: Estimate, b: Estimate): Estimate => ({ min: sat(a.min * b.min), max: sat(a.max * b.max) });
/** cel-go's MultiplyByCostFactor: rounded up */
export const factor = (a: Estimate, f: number): Estimate => ({ min: sat(Math.ceil(a.min * f)), max: sat(Math.ceil(a.max * f)) });
export const union = (a: Estimate, b: Estimate): Estimate => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });
/** common.StringTraversalCostFactor and RegexStringLengthCostFactor */
export const traversal = 0.1, regexFactor = 0.25;
