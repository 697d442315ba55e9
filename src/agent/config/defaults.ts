// The configuration's defaults (what KubeletConfiguration v1beta1 defaults to), applied to
// fields the merged documents leave unset. Maps with defaults (evictionHard) are defaulted as
// a whole: a configured evictionHard replaces the default thresholds, as in Kubernetes.

import type { AgentConfig } from './types.ts';

export function defaultAgentConfig(): AgentConfig {
  return {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    enableServer: true,
    staticPodPath: '',
    syncFrequency: '1m0s',
    fileCheckFrequency: '20s',
    httpCheckFrequency: '20s',
    address: '0.0.0.0',
    port: 10250,
    healthzPort: 10248,
    healthzBindAddress: '127.0.0.1',
    authentication: { x509: {}, webhook: { enabled: true, cacheTTL: '2m0s' }, anonymous: { enabled: false } },
    authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' } },
    clusterDomain: '',
    clusterDNS: [],
    nodeStatusUpdateFrequency: '10s',
    nodeStatusReportFrequency: '5m0s',
    nodeLeaseDurationSeconds: 40,
    runtimeRequestTimeout: '2m0s',
    maxPods: 110,
    podPidsLimit: -1,
    serializeImagePulls: true,
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%', 'imagefs.available': '15%', 'imagefs.inodesFree': '5%' },
    featureGates: {},
    failSwapOn: true,
    memorySwap: { swapBehavior: 'NoSwap' },
    containerLogMaxSize: '10Mi',
    containerLogMaxFiles: 5,
    systemReserved: {},
    kubeReserved: {},
    enforceNodeAllocatable: ['pods'],
    allowedUnsafeSysctls: [],
    registerNode: true,
    registerWithTaints: [],
    seccompDefault: false,
    shutdownGracePeriod: '0s',
    cgroupDriver: 'cgroupfs',
    containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock',
    imageServiceEndpoint: '',
    staticPodURLHeader: {},
  };
}

/** defaults under the configured values: structs field by field, everything else if unset */
export function withDefaults(config: Record<string, unknown>): AgentConfig {
  const fill = (def: Record<string, unknown>, have: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...def };
    for (const [k, v] of Object.entries(have)) {
      const d = def[k];
      const bothStructs = d && v && typeof d === 'object' && typeof v === 'object' && !Array.isArray(d) && k !== 'evictionHard' && k !== 'featureGates' && k !== 'systemReserved' && k !== 'kubeReserved' && k !== 'staticPodURLHeader';
      out[k] = bothStructs ? fill(d as Record<string, unknown>, v as Record<string, unknown>) : v;
    }
    return out;
  };
  return fill(defaultAgentConfig() as unknown as Record<string, unknown>, config) as unknown as AgentConfig;
}
