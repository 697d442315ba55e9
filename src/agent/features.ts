// The agent's feature gates: which exist, their stage and default. Nodes declare the enabled
// gates still in development (alpha, beta) in status.declaredFeatures; graduated features are
// the baseline every node has and are not listed.

import type { FeatureSpec } from '../api/feature-gates.ts';

export type Stage = 'Alpha' | 'Beta' | 'GA';

export const agentFeatureGates: Record<string, { stage: Stage; default: boolean }> = {
  ContainerCheckpoint: { stage: 'Beta', default: true },
  KubeletPodInfoAPI: { stage: 'Alpha', default: false },
  NodeDeclaredFeatures: { stage: 'Beta', default: true },
  SystemdWatchdog: { stage: 'Beta', default: true },
  KubeletEnsureSecretPulledImages: { stage: 'Beta', default: true },
  InPlacePodVerticalScaling: { stage: 'GA', default: true },
  NodeSwap: { stage: 'GA', default: true },
};

/** the agent's gates in the form the shared `--feature-gates` parser reads */
export function agentFeatureSpecs(): Record<string, FeatureSpec> {
  const stages = { Alpha: 'ALPHA', Beta: 'BETA', GA: 'GA' } as const;
  return Object.fromEntries(Object.entries(agentFeatureGates).map(([name, g]) => [name, { default: g.default, stage: stages[g.stage] }]));
}

export interface FeatureGates {
  enabled(name: string): boolean;
  /** names given that the agent does not know, to warn about */
  unknown: string[];
}

export function featureGates(configured: Record<string, boolean> = {}): FeatureGates {
  return {
    enabled: name => configured[name] ?? agentFeatureGates[name]?.default ?? false,
    unknown: Object.keys(configured).filter(n => !agentFeatureGates[n]),
  };
}

export function declaredFeatures(gates: FeatureGates): string[] {
  if (!gates.enabled('NodeDeclaredFeatures')) return [];
  return Object.entries(agentFeatureGates).filter(([name, g]) => g.stage !== 'GA' && gates.enabled(name)).map(([name]) => name).sort();
}
