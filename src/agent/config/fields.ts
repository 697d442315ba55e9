// The shape of the agent's configuration document (KubeletConfiguration, kubelet.config.k8s.io
// v1beta1): every field it may hold and what kind of value, which decides both strict decoding
// (unknown fields and wrong types are errors) and how drop-ins merge (appendix A: structs and
// scalars field by field, lists replaced, maps merged per key, maps of lists replaced per key).

export type FieldKind =
  | 'string' | 'int' | 'number' | 'bool' | 'duration'
  | 'stringList' | 'list' /* of objects, replaced whole */
  | 'stringMap' | 'boolMap' | 'mapOfLists'
  | 'any' /* an open document (logging, tracing options) */
  | { struct: Record<string, FieldKind> };

const s = 'string', i = 'int', b = 'bool', d = 'duration';

export const agentConfigFields: Record<string, FieldKind> = {
  apiVersion: s, kind: s,
  enableServer: b, staticPodPath: s, podLogsDir: s, syncFrequency: d, fileCheckFrequency: d, httpCheckFrequency: d,
  staticPodURL: s, staticPodURLHeader: 'mapOfLists',
  address: s, port: i, readOnlyPort: i, tlsCertFile: s, tlsPrivateKeyFile: s, tlsCipherSuites: 'stringList', tlsMinVersion: s,
  rotateCertificates: b, serverTLSBootstrap: b,
  authentication: { struct: {
    x509: { struct: { clientCAFile: s } },
    webhook: { struct: { enabled: b, cacheTTL: d } },
    anonymous: { struct: { enabled: b } },
  } },
  authorization: { struct: { mode: s, webhook: { struct: { cacheAuthorizedTTL: d, cacheUnauthorizedTTL: d } } } },
  registryPullQPS: i, registryBurst: i, imagePullCredentialsVerificationPolicy: s, preloadedImagesVerificationAllowlist: 'stringList',
  eventRecordQPS: i, eventBurst: i, enableDebuggingHandlers: b, enableContentionProfiling: b,
  healthzPort: i, healthzBindAddress: s, oomScoreAdj: i, clusterDomain: s, clusterDNS: 'stringList',
  streamingConnectionIdleTimeout: d, nodeStatusUpdateFrequency: d, nodeStatusReportFrequency: d, nodeLeaseDurationSeconds: i,
  imageMinimumGCAge: d, imageMaximumGCAge: d, imageGCHighThresholdPercent: i, imageGCLowThresholdPercent: i, volumeStatsAggPeriod: d,
  kubeletCgroups: s, systemCgroups: s, cgroupRoot: s, cgroupsPerQOS: b, cgroupDriver: s,
  cpuManagerPolicy: s, singleProcessOOMKill: b, cpuManagerPolicyOptions: 'stringMap', cpuManagerReconcilePeriod: d,
  memoryManagerPolicy: s, topologyManagerPolicy: s, topologyManagerScope: s, topologyManagerPolicyOptions: 'stringMap',
  qosReserved: 'stringMap', runtimeRequestTimeout: d, hairpinMode: s, maxPods: i, podCIDR: s, podPidsLimit: i, resolvConf: s,
  runOnce: b, cpuCFSQuota: b, cpuCFSQuotaPeriod: d, nodeStatusMaxImages: i, maxOpenFiles: i, contentType: s,
  kubeAPIQPS: i, kubeAPIBurst: i, serializeImagePulls: b, maxParallelImagePulls: i,
  evictionHard: 'stringMap', evictionSoft: 'stringMap', evictionSoftGracePeriod: 'stringMap', evictionPressureTransitionPeriod: d,
  evictionMaxPodGracePeriod: i, evictionMinimumReclaim: 'stringMap', mergeDefaultEvictionSettings: b, podsPerCore: i,
  enableControllerAttachDetach: b, protectKernelDefaults: b, makeIPTablesUtilChains: b, iptablesMasqueradeBit: i, iptablesDropBit: i,
  featureGates: 'boolMap', failSwapOn: b, memorySwap: { struct: { swapBehavior: s } },
  containerLogMaxSize: s, containerLogMaxFiles: i, containerLogMaxWorkers: i, containerLogMonitorInterval: d,
  configMapAndSecretChangeDetectionStrategy: s, systemReserved: 'stringMap', kubeReserved: 'stringMap', reservedSystemCPUs: s,
  showHiddenMetricsForVersion: s, systemReservedCgroup: s, kubeReservedCgroup: s, enforceNodeAllocatable: 'stringList',
  allowedUnsafeSysctls: 'stringList', volumePluginDir: s, providerID: s, kernelMemcgNotification: b,
  logging: 'any', enableSystemLogHandler: b, enableSystemLogQuery: b,
  shutdownGracePeriod: d, shutdownGracePeriodCriticalPods: d, shutdownGracePeriodByPodPriority: 'list',
  crashLoopBackOff: { struct: { maxContainerRestartPeriod: d } }, reservedMemory: 'list',
  enableProfilingHandler: b, enableDebugFlagsHandler: b, seccompDefault: b, memoryThrottlingFactor: 'number',
  registerWithTaints: 'list', registerNode: b, tracing: 'any', localStorageCapacityIsolation: b,
  containerRuntimeEndpoint: s, imageServiceEndpoint: s, failCgroupV1: b, userNamespaces: { struct: { idsPerPod: i } },
};
