// The agent's feature gates: which exist, their stage and default, and whether orch implements
// the feature. Nodes declare the enabled gates still in development (alpha, beta) in
// status.declaredFeatures; graduated features are the baseline every node has and are not
// listed. A gate whose feature is not built here is never on, whatever the configuration says
// (the start log warns), so a node never declares what it cannot do.

import type { FeatureSpec } from '../api/feature-gates.ts';

export type Stage = 'Alpha' | 'Beta' | 'GA';

interface AgentGate { stage: Stage; default: boolean; implemented: boolean }

export const agentFeatureGates: Record<string, AgentGate> = {
  // the checkpoint endpoint is not built yet (it answers 404)
  ContainerCheckpoint: { stage: 'Beta', default: true, implemented: false },
  // the pod info socket is not built yet
  KubeletPodInfoAPI: { stage: 'Alpha', default: false, implemented: false },
  NodeDeclaredFeatures: { stage: 'Beta', default: true, implemented: true },
  SystemdWatchdog: { stage: 'Beta', default: true, implemented: true },
  // image pulls are not yet re-verified against the pod's pull secrets
  KubeletEnsureSecretPulledImages: { stage: 'Beta', default: true, implemented: false },
  InPlacePodVerticalScaling: { stage: 'GA', default: true, implemented: true },
  NodeSwap: { stage: 'GA', default: true, implemented: true },
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
  /** gates turned on whose feature orch does not implement, to warn about */
  unimplemented: string[];
}

export function featureGates(configured: Record<string, boolean> = {}): FeatureGates {
  const asked = (name: string) => configured[name] ?? agentFeatureGates[name]?.default ?? false;
  return {
    enabled: name => asked(name) && agentFeatureGates[name]?.implemented === true,
    unknown: Object.keys(configured).filter(n => !agentFeatureGates[n]),
    unimplemented: Object.keys(configured).filter(n => configured[n] && agentFeatureGates[n] && !agentFeatureGates[n].implemented),
  };
}

export function declaredFeatures(gates: FeatureGates): string[] {
  if (!gates.enabled('NodeDeclaredFeatures')) return [];
  return Object.entries(agentFeatureGates).filter(([name, g]) => g.stage !== 'GA' && gates.enabled(name)).map(([name]) => name).sort();
}
