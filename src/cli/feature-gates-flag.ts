// `--feature-gates` as every orch command takes it, refused at start in kube-apiserver's words.

import { featureGates, parseFeatureGates, type FeatureGates, type FeatureSpec } from '../api/feature-gates.ts';
import { UsageError, type Flag } from './command.ts';

export const featureGatesFlag: Flag = {
  type: 'string', default: '',
  description: 'feature gates to set, Name=true|false comma-separated (AllAlpha and AllBeta set every alpha or beta gate)',
};

/** the gates the flag names, checked against `known`; a UsageError worded as Kubernetes' flag parser words it */
export function featureGatesFromFlag(value: unknown, known: Readonly<Record<string, FeatureSpec>>): Record<string, boolean> {
  const text = String(value ?? '');
  try {
    return parseFeatureGates(text, known);
  } catch (err) {
    throw new UsageError(`invalid argument ${JSON.stringify(text)} for "--feature-gates" flag: ${(err as Error).message}`);
  }
}

/** every gate of `known` with the flag's values over the defaults */
export function readFeatureGates(value: unknown, known: Readonly<Record<string, FeatureSpec>>): FeatureGates {
  return featureGates(featureGatesFromFlag(value, known), known);
}
