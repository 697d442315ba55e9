// The agent's configuration as the rest of the agent reads it, after decoding, merging and
// defaults. Field names are KubeletConfiguration's; fields.ts lists every field a document may
// carry, this type only those with defaults or readers.

import type { Taint } from '../node-status/node-object.ts';

export interface AgentConfig {
  apiVersion: string;
  kind: string;
  enableServer: boolean;
  staticPodPath: string;
  staticPodURL?: string;
  staticPodURLHeader: Record<string, string[]>;
  syncFrequency: string;
  fileCheckFrequency: string;
  httpCheckFrequency: string;
  address: string;
  port: number;
  healthzPort: number;
  healthzBindAddress: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  /** renew the client certificate through the certificates API before it expires (default false, as the kubelet's) */
  rotateCertificates?: boolean;
  authentication: { x509: { clientCAFile?: string }; webhook: { enabled: boolean; cacheTTL: string }; anonymous: { enabled: boolean } };
  authorization: { mode: string; webhook: { cacheAuthorizedTTL: string; cacheUnauthorizedTTL: string } };
  clusterDomain: string;
  clusterDNS: string[];
  nodeStatusUpdateFrequency: string;
  nodeStatusReportFrequency: string;
  nodeLeaseDurationSeconds: number;
  runtimeRequestTimeout: string;
  maxPods: number;
  podPidsLimit: number;
  podCIDR?: string;
  serializeImagePulls: boolean;
  evictionHard: Record<string, string>;
  featureGates: Record<string, boolean>;
  failSwapOn: boolean;
  memorySwap: { swapBehavior: string };
  containerLogMaxSize: string;
  containerLogMaxFiles: number;
  systemReserved: Record<string, string>;
  kubeReserved: Record<string, string>;
  enforceNodeAllocatable: string[];
  allowedUnsafeSysctls: string[];
  registerNode: boolean;
  registerWithTaints: Taint[];
  seccompDefault: boolean;
  shutdownGracePeriod: string;
  cgroupDriver: string;
  containerRuntimeEndpoint: string;
  imageServiceEndpoint: string;
  [field: string]: unknown;
}
