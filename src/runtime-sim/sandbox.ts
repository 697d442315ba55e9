// A pod sandbox: the pod's network identity (an IP from the pod subnet, none for host-network
// pods) and the place its containers run.
import type { CriInput, CriPodSandbox, CriPodSandboxConfig, CriPodSandboxStatus } from '../agent/cri/generated/cri-types.ts';

export type SandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';

export interface Sandbox {
  id: string;
  /** "name_namespace_uid_attempt", unique per runtime as containerd reserves it */
  name: string;
  config: CriPodSandboxConfig;
  runtimeHandler: string;
  createdAt: number;
  state: SandboxState;
  /** "" for host-network pods */
  ip: string;
  /** the address went back to the pool when the sandbox stopped */
  ipReleased?: boolean;
}

export function sandboxName(config: CriPodSandboxConfig): string {
  const m = config.metadata;
  return `${m?.name ?? ''}_${m?.namespace ?? ''}_${m?.uid ?? ''}_${m?.attempt ?? 0}`;
}

export function usesHostNetwork(config: CriPodSandboxConfig): boolean {
  return config.linux?.securityContext?.namespaceOptions?.network === 'NODE';
}

/** PodSandbox, as ListPodSandbox answers */
export function sandboxSummary(sb: Sandbox): CriInput<CriPodSandbox> {
  return {
    id: sb.id,
    metadata: sb.config.metadata,
    state: sb.state,
    createdAt: sb.createdAt,
    labels: sb.config.labels ?? {},
    annotations: sb.config.annotations ?? {},
    runtimeHandler: sb.runtimeHandler,
  };
}

/** PodSandboxStatus, as PodSandboxStatus answers */
export function sandboxStatus(sb: Sandbox): CriInput<CriPodSandboxStatus> {
  return {
    ...sandboxSummary(sb),
    network: { ip: sb.ip, additionalIps: [] },
    linux: { namespaces: { options: sb.config.linux?.securityContext?.namespaceOptions ?? {} } },
  };
}
