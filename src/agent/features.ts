// The agent's feature gates: which exist, their stage and default, and whether orch implements
// the feature. Nodes declare the enabled gates still in development (alpha, beta) in
// status.declaredFeatures; graduated features are the baseline every node has and are not
// listed.
//
// Every gate the configuration (or --feature-gates) may set changes what the agent does, or is
// refused at start as the kubelet refuses a bad gate: a name the agent does not know, a graduated
// gate set against its locked value, or a gate turned on whose feature orch does not build (its
// default here is off, so a node never declares or pretends to run what it cannot do).

import { featureGates as evaluate, type FeatureSpec } from '../api/feature-gates.ts';

export type Stage = 'Alpha' | 'Beta' | 'GA';

interface AgentGate { stage: Stage; default: boolean; implemented: boolean; lockToDefault?: boolean }

export const agentFeatureGates: Record<string, AgentGate> = {
  // POST /checkpoint/... through the runtime's CheckpointContainer (checkpoint/ and server/checkpoint-route.ts)
  ContainerCheckpoint: { stage: 'Beta', default: true, implemented: true },
  // the pod info gRPC API on <root-dir>/pods/agent.sock (podinfo/), KEP-4188's gate name
  PodInfoAPI: { stage: 'Alpha', default: false, implemented: true },
  // Get of the pod resources API (podresources/); off, Get answers "PodResources API Get method disabled"
  KubeletPodResourcesGet: { stage: 'Beta', default: true, implemented: true },
  // status.declaredFeatures, written or left empty
  NodeDeclaredFeatures: { stage: 'Beta', default: true, implemented: true },
  // keep-alives to the supervisor's notify socket (watchdog.ts)
  SystemdWatchdog: { stage: 'Beta', default: true, implemented: true },
  // a systemd-logind delay inhibitor lock and pods ended in priority order before the node shuts down (shutdown/)
  GracefulNodeShutdown: { stage: 'Beta', default: true, implemented: true },
  // shutdownGracePeriodByPodPriority read (otherwise shutdownGracePeriod's regular/critical split only)
  GracefulNodeShutdownBasedOnPodPriority: { stage: 'Beta', default: true, implemented: true },
  // image pull records under <root-dir>/image_manager and imagePullCredentialsVerificationPolicy (images/)
  KubeletEnsureSecretPulledImages: { stage: 'Beta', default: true, implemented: true },
  // GA and locked to on in 1.35 (resize and its resource checkpoints always run)
  InPlacePodVerticalScaling: { stage: 'GA', default: true, implemented: true, lockToDefault: true },
  // GA and locked to on in 1.34 (memorySwap.swapBehavior is always read)
  NodeSwap: { stage: 'GA', default: true, implemented: true, lockToDefault: true },
};

/** the agent's gates in the form the shared `--feature-gates` parser reads */
export function agentFeatureSpecs(): Record<string, FeatureSpec> {
  const stages = { Alpha: 'ALPHA', Beta: 'BETA', GA: 'GA' } as const;
  return Object.fromEntries(Object.entries(agentFeatureGates).map(([name, g]) => [name, { default: g.default, stage: stages[g.stage], lockToDefault: g.lockToDefault }]));
}

export interface FeatureGates {
  enabled(name: string): boolean;
  /** every gate with its effective value (for the start log) */
  effective(): Record<string, boolean>;
}

/**
 * why these gates cannot be set, in component-base's words where Kubernetes has them (the kubelet
 * exits on the first); empty when every name and value is accepted
 */
export function featureGateProblems(configured: Record<string, boolean> = {}): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(configured)) {
    if (name === 'AllAlpha' || name === 'AllBeta') continue;
    const g = agentFeatureGates[name];
    if (!g) out.push(`unrecognized feature gate: ${name}`);
    else if (g.lockToDefault && value !== g.default) out.push(`cannot set feature gate ${name} to ${value}, feature is locked to ${g.default}`);
    else if (value && !g.implemented) out.push(`cannot set feature gate ${name} to true, orch does not implement the feature`);
  }
  return out;
}

/** the gates in effect: the configured values over the defaults, AllAlpha/AllBeta for the rest; a feature orch lacks is never on */
export function featureGates(configured: Record<string, boolean> = {}): FeatureGates {
  const base = evaluate(configured, agentFeatureSpecs());
  const enabled = (name: string) => base.enabled(name) && agentFeatureGates[name]?.implemented === true;
  return {
    enabled,
    effective: () => Object.fromEntries(Object.keys(agentFeatureGates).sort().map(n => [n, enabled(n)])),
  };
}

export function declaredFeatures(gates: FeatureGates): string[] {
  if (!gates.enabled('NodeDeclaredFeatures')) return [];
  return Object.entries(agentFeatureGates).filter(([name, g]) => g.stage !== 'GA' && gates.enabled(name)).map(([name]) => name).sort();
}
