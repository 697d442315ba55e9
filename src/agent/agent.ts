// The node agent, wired: machine facts, the node's registration and status, the lease
// heartbeat, the HTTPS endpoint with health checks, and the supervisor watchdog. Without a
// client (no kubeconfig) it runs standalone: nothing is registered, the endpoint still serves.

import { mkdir, readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import type { Logger } from '../api/log.ts';
import { parseDuration } from '../api/duration.ts';
import type { Client } from '../client/rest.ts';
import { realClock, type Clock } from './clock.ts';
import { declaredFeatures, featureGateProblems, featureGates } from './features.ts';
import { checkpointer, ensureCheckpointsDir } from './checkpoint/checkpoint.ts';
import { checkpointBackend } from './checkpoint/backend.ts';
import { checkpointRoute } from './server/checkpoint-route.ts';
import { readMachineFacts, type MachineFacts } from './machine/facts.ts';
import { hostFiles, type HostFiles } from './machine/host-files.ts';
import { kernelFeatures, parseKernelVersion, type KernelFeature } from './machine/kernel.ts';
import { nodePolicy } from './security/node-policy.ts';
import { readMachineUsage, realDiskStats, type DiskStats } from './machine/usage.ts';
import { hostAddresses, nodeAddresses } from './node-status/addresses.ts';
import { observedConditions } from './node-status/conditions.ts';
import { startLeaseHeartbeat } from './node-status/lease.ts';
import { nodeStatus, registrationNode, type Taint } from './node-status/node-object.ts';
import { nodeResources } from './node-status/resources.ts';
import { parseQuantity } from '../api/quantity.ts';
import { startStatusReporter, type StatusReporter } from './node-status/status-reporter.ts';
import type { CriClient } from './cri/client.ts';
import { containerLogsRoute } from './logs/container-logs-route.ts';
import { findLogFile } from './pods/log-files.ts';
import { commandRoute, portForwardRoute } from './streaming/routes.ts';
import { streamTargets } from './streaming/locate.ts';
import { hostCgroupFs } from './pods/pod-cgroup-files.ts';
import { startPodManager, type PodManager } from './pods/pod-manager.ts';
import { localPods } from './podinfo/local-pods.ts';
import { startPodInfoServer, type PodInfoServer } from './podinfo/server.ts';
import type { RuntimeProbe } from './runtime-probe.ts';
import { healthRegistry, type HealthRegistry } from './server/health.ts';
import { startAgentServer, startHealthzServer } from './server/https-server.ts';
import { servingCert } from './server/serving-cert.ts';
import { configuredAccessGate } from './server/auth/access.ts';
import { startServingCertificates } from './certificates/serving-manager.ts';
import { swapOnBytes, swapStartupProblem } from './swap.ts';
import { startWatchdog } from './watchdog.ts';
import { statsCollector } from './stats/collector.ts';
import { evictionManager } from './eviction/manager.ts';
import { parseThresholds, type Threshold } from './eviction/thresholds.ts';
import { eventRecorder } from '../client/events.ts';
import { startNodeGc, type NodeGc } from './gc/node-gc.ts';
import { startLocalPathCleanup } from './volumes/local-path-cleanup.ts';
import { resourceMetricsRoute, summaryRoute } from './stats/stats-routes.ts';
import { podsRoute } from './server/pods-route.ts';
import { parseResolvConf, type ResolvConf } from '../dns/resolv-conf.ts';
import { startDevices, type Devices } from './devices/start.ts';
import { startShutdownManager, type ShutdownManager } from './shutdown/manager.ts';
import { defaultLogindDropInDir, defaultSystemBusAddress } from './shutdown/logind.ts';
import { nodeShuttingDown, shutdownPeriods, type ShutdownSettings } from './shutdown/plan.ts';
import type { VerificationPolicy } from './images/pull-policy.ts';
import { createAgentMetrics } from './metrics/agent-metrics.ts';
import { instrumentCri } from './metrics/runtime-operations.ts';
import { metricsRoute } from './server/metrics-route.ts';

/** the host's resolver settings for pods, from the resolvConf setting's file (none when the setting is empty or the file unreadable) */
async function hostResolvConf(path: string): Promise<ResolvConf | undefined> {
  if (!path) return undefined;
  const text = await readFile(path, 'utf8').catch(() => undefined);
  return text === undefined ? { nameservers: [], searches: [], options: [] } : parseResolvConf(text);
}

/** the configuration fields the agent reads (KubeletConfiguration names) */
export interface AgentSettings extends ShutdownSettings {
  address: string;
  port: number;
  healthzBindAddress?: string;
  healthzPort?: number;
  nodeStatusUpdateFrequency: string;
  nodeStatusReportFrequency: string;
  nodeLeaseDurationSeconds: number;
  maxPods: number;
  systemReserved?: Record<string, string>;
  kubeReserved?: Record<string, string>;
  evictionHard?: Record<string, string>;
  evictionSoft?: Record<string, string>;
  evictionSoftGracePeriod?: Record<string, string>;
  evictionMinimumReclaim?: Record<string, string>;
  evictionPressureTransitionPeriod?: string;
  evictionMaxPodGracePeriod?: number;
  imageGCHighThresholdPercent?: number;
  imageGCLowThresholdPercent?: number;
  imageMinimumGCAge?: string;
  containerLogMaxSize?: string;
  containerLogMaxFiles?: number;
  containerLogMonitorInterval?: string;
  registerNode?: boolean;
  registerWithTaints?: Taint[];
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  /** the serving certificate through a kubelet-serving CSR instead of a self-signed pair */
  serverTLSBootstrap?: boolean;
  /** absent parts: client certificates only, no anonymous, no token webhook */
  authentication?: { x509?: { clientCAFile?: string }; webhook?: { enabled?: boolean; cacheTTL?: string }; anonymous?: { enabled?: boolean } };
  /** absent: AlwaysAllow (the kubelet's flag default); the configuration file's default is Webhook */
  authorization?: { mode?: string; webhook?: { cacheAuthorizedTTL?: string; cacheUnauthorizedTTL?: string } };
  failSwapOn?: boolean;
  featureGates?: Record<string, boolean>;
  podCIDR?: string;
  staticPodPath?: string;
  podLogsDir?: string;
  clusterDNS?: string[];
  clusterDomain?: string;
  /** the host's resolv.conf pods with dnsPolicy Default get (the kubelet's default /etc/resolv.conf; empty: none) */
  resolvConf?: string;
  fileCheckFrequency?: string;
  syncFrequency?: string;
  crashLoopBackOff?: { maxContainerRestartPeriod?: string };
  seccompDefault?: boolean;
  allowedUnsafeSysctls?: string[];
  memorySwap?: { swapBehavior?: string };
  cgroupsPerQOS?: boolean;
  cgroupRoot?: string;
  cgroupDriver?: string;
  /** the CRI calls' default deadline (2m); a checkpoint may ask for longer */
  runtimeRequestTimeout?: string;
  /** who may use an image already present (KubeletEnsureSecretPulledImages); default NeverVerifyPreloadedImages */
  imagePullCredentialsVerificationPolicy?: string;
  preloadedImagesVerificationAllowlist?: string[];
}

export interface AgentOptions {
  settings: AgentSettings;
  /** absent (and no connect): standalone */
  client?: Client;
  /**
   * makes the client once the node's name is known, for credentials that name the node (its own
   * client certificate, TLS bootstrapping); used when `client` is absent
   */
  connect?: (nodeName: string) => Promise<Client>;
  /** PEM of the cluster CA, trusted for client certificates when clientCAFile is not set */
  clusterCA?: string;
  hostnameOverride?: string;
  nodeLabels?: Record<string, string>;
  nodeIPs?: string[];
  rootDir: string;
  certDir: string;
  runtime: RuntimeProbe;
  /** the container runtime that runs pods; without it the agent reports its node only */
  cri?: CriClient;
  log: Logger;
  clock?: Clock;
  /** where /proc, /sys and /etc are read (tests point it at a fake tree) */
  hostFiles?: HostFiles;
  diskStats?: DiskStats;
  /** the environment the service manager gave (NOTIFY_SOCKET, WATCHDOG_USEC) */
  env?: NodeJS.ProcessEnv;
  /** the system D-Bus where logind is (default DBUS_SYSTEM_BUS_ADDRESS, else the standard socket) */
  systemBusAddress?: string;
  /** where the logind.conf.d drop-in raising InhibitDelayMaxSec goes (default /etc/systemd/logind.conf.d) */
  logindDropInDir?: string;
}

export interface Agent {
  nodeName: string;
  facts: MachineFacts;
  kernel: KernelFeature[];
  health: HealthRegistry;
  port: number;
  healthzPort?: number;
  /** with serverTLSBootstrap: resolves once the endpoint has a certificate from the cluster */
  servingCertificate?: Promise<void>;
  reporter?: StatusReporter;
  pods?: PodManager;
  /** the graceful node shutdown manager, when a grace period is configured */
  shutdown?: ShutdownManager;
  stop(): Promise<void>;
}

const housekeepingMs = 10_000;

export async function startAgent(opts: AgentOptions): Promise<Agent> {
  const s = opts.settings;
  const clock = opts.clock ?? realClock;
  const startedAtMs = clock.now();
  const files = opts.hostFiles ?? hostFiles('/');
  const log = opts.log;
  await mkdir(opts.rootDir, { recursive: true });
  const facts = await readMachineFacts(files, opts.hostnameOverride);
  const nodeName = facts.hostname;
  // /metrics: every runtime call is timed from here on
  const metrics = createAgentMetrics(nodeName);
  const cri = opts.cri && instrumentCri(opts.cri, metrics.runtimeOperation);
  const apiClient: Client | undefined = opts.client ?? (opts.connect ? await opts.connect(nodeName) : undefined);

  const swap = await swapOnBytes(files);
  const swapProblem = swapStartupProblem(swap, s.failSwapOn ?? true);
  if (swapProblem) throw new Error(`failed to run Kubelet: ${swapProblem}`);

  let thresholds: Threshold[];
  try { thresholds = parseThresholds(s); } catch (err) { throw new Error(`failed to run Kubelet: ${(err as Error).message}`); }

  const kernel = await kernelFeatures(facts.kernelVersion, files);
  log.info('kernel features', { kernel: facts.kernelVersion, supported: kernel.filter(k => k.supported).map(k => k.feature), unsupported: kernel.filter(k => !k.supported).map(k => `${k.feature} (${k.requirement}${k.observed ? `; here ${k.observed}` : ''})`) });

  // a gate that cannot be honoured stops the start, as the kubelet refuses it, never ignored
  const gateProblems = featureGateProblems(s.featureGates);
  if (gateProblems.length) throw new Error(`failed to set feature gates from initial flags-based config: ${gateProblems[0]}`);
  const gates = featureGates(s.featureGates);
  log.info('feature gates', gates.effective());

  const health = healthRegistry();
  let lastLoop = clock.now();
  const updateMs = parseDuration(s.nodeStatusUpdateFrequency);
  health.add('ping', () => undefined);
  health.add('log', () => undefined);
  // the status loop is the agent's main loop until pods are synced here; a wedged loop is unhealthy
  health.add('syncloop', () => (clock.now() - lastLoop > 3 * updateMs + 30_000 ? `sync loop has not run for ${Math.round((clock.now() - lastLoop) / 1000)}s` : undefined));

  let pods: PodManager | undefined;
  let gc: NodeGc | undefined;
  let podInfo: PodInfoServer | undefined;
  let devices: Devices | undefined;
  let shutdown: ShutdownManager | undefined;
  // a runtime relist that stalls makes the node unhealthy and not ready
  health.add('pleg', () => pods?.pleg.unhealthy());

  const clientCA = s.authentication?.x509?.clientCAFile ? await readFile(s.authentication.x509.clientCAFile, 'utf8') : (opts.clusterCA ?? '');
  const addressesNow = () => nodeAddresses({ hostname: nodeName, nodeIPs: opts.nodeIPs, interfaces: networkInterfaces() });
  // serverTLSBootstrap: the cluster certifies the endpoint (a CSR), and there is no self-signed pair
  const bootstrapServing = !!s.serverTLSBootstrap && !!apiClient;
  const servingCsr = bootstrapServing ? await startServingCertificates({
    client: apiClient, nodeName, addresses: addressesNow, certDir: opts.certDir, log: log.with({ component: 'serving-certificate' }),
    initial: s.tlsCertFile && s.tlsPrivateKeyFile ? { cert: await readFile(s.tlsCertFile, 'utf8'), key: await readFile(s.tlsPrivateKeyFile, 'utf8') } : undefined,
  }) : undefined;
  const serving = servingCsr ?? await servingCert({ certFile: s.tlsCertFile, keyFile: s.tlsPrivateKeyFile, certDir: opts.certDir, nodeName, addresses: addressesNow().filter(a => a.type !== 'Hostname').map(a => a.address) });
  const verboseLines = () => kernel.map(k => `[${k.supported ? '+' : '-'}]kernel ${k.feature} (${k.requirement}${k.observed ? `; here ${k.observed}` : ''})`);
  let access;
  try { access = configuredAccessGate(nodeName, s, apiClient); } catch (err) { throw new Error(`failed to run Kubelet: ${(err as Error).message}`); }
  const server = await startAgentServer({ address: s.address, port: s.port, serving, clientCA, access, health, verboseLines, log });
  const healthz = s.healthzPort ? await startHealthzServer(s.healthzBindAddress ?? '127.0.0.1', s.healthzPort, health) : undefined;

  const podLogsDir = s.podLogsDir || '/var/log/pods';
  const stats = statsCollector({
    nodeName, startedAtMs, files, rootDir: opts.rootDir, podLogsDir, disk: opts.diskStats ?? realDiskStats, cri,
    pods: () => pods?.workers.pods() ?? [], now: () => clock.now(),
  });
  server.route('/stats/summary', summaryRoute(stats));
  server.route('/metrics/resource', resourceMetricsRoute(stats));
  server.route('/pods', podsRoute(() => pods?.workers.pods() ?? []));
  server.route('/metrics', metricsRoute(metrics.exposition));
  const nodeEvents = apiClient ? eventRecorder(apiClient, 'kubelet', log, nodeName, () => clock.now()) : undefined;
  const eviction = evictionManager({
    thresholds,
    transitionPeriodMs: parseDuration(s.evictionPressureTransitionPeriod ?? '5m'),
    maxPodGracePeriodSeconds: s.evictionMaxPodGracePeriod ?? 0,
    collect: () => stats.collect(),
    pods: () => pods?.workers.pods() ?? [],
    fail: (pod, grace, why) => pods ? pods.fail(pod, grace, why) : Promise.resolve(),
    nodeEvent: (reason, message) => nodeEvents?.record({ apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName, uid: nodeName } }, 'Warning', reason, message),
    // disk pressure: dead containers and unused images go before any pod
    reclaim: () => gc ? gc.reclaim() : Promise.resolve(),
    now: () => clock.now(),
    log,
  });
  // housekeeping: every 10 s the eviction manager's round, whose stats sample also keeps CPU
  // rates ready for whoever reads the stats next; the first at once, so rates exist a second after start
  let stopping = false;
  let housekeeping = { cancel() {} };
  (function tick() {
    void eviction.synchronize().catch(err => log.warn('eviction round failed', { err: String(err) })).finally(() => { if (!stopping) housekeeping = clock.after(housekeepingMs, tick); });
  })();

  let reporter: StatusReporter | undefined;
  /** the node's allocatable resources as last reported, for the pods' volumes, downward API and resizes */
  let allocatable: Record<string, string> | undefined;
  let lease: { stop(): void } | undefined;
  let localVolumes: { stop(): void } | undefined;
  if (apiClient && (s.registerNode ?? true)) {
    const observe = async () => {
      lastLoop = clock.now();
      const [usage, runtime] = await Promise.all([readMachineUsage(files, opts.rootDir, opts.diskStats), opts.runtime.state()]);
      const plegProblem = pods?.pleg.unhealthy();
      if (plegProblem) runtime.notReadyReasons.push(plegProblem);
      if (shutdown?.shuttingDown()) runtime.notReadyReasons.push(nodeShuttingDown);
      const resources = nodeResources(facts, usage.nodefsCapacityBytes, s.maxPods, s);
      // device plugins' resources: every device in capacity, the healthy ones allocatable
      const deviceResources = devices?.manager.capacity();
      Object.assign(resources.capacity, deviceResources?.capacity);
      Object.assign(resources.allocatable, deviceResources?.allocatable);
      allocatable = resources.allocatable;
      const networkReady = (opts.nodeIPs?.length ?? 0) > 0 || hostAddresses().length > 0;
      return {
        status: nodeStatus({ facts, resources, addresses: addressesNow(), port: server.port, runtimeVersion: runtime.version, declaredFeatures: declaredFeatures(gates) }),
        conditions: observedConditions(eviction.conditions(), { notReadyReasons: runtime.notReadyReasons, networkReady }),
      };
    };
    reporter = startStatusReporter({
      client: apiClient,
      node: registrationNode({ name: nodeName, facts, labels: opts.nodeLabels ?? {}, taints: s.registerWithTaints ?? [], podCIDR: s.podCIDR }),
      observe,
      updateFrequencyMs: updateMs,
      reportFrequencyMs: parseDuration(s.nodeStatusReportFrequency),
      clock,
      log,
    });
    const client = apiClient;
    const r = reporter;
    void reporter.registered.then(() => {
      lease = startLeaseHeartbeat({ client, nodeName, leaseDurationSeconds: s.nodeLeaseDurationSeconds, clock, log, nodeUid: () => r.uid() });
    });
  } else {
    // standalone: nothing to report, but the loop is alive
    const keepAlive = () => { lastLoop = clock.now(); timer = clock.after(updateMs, keepAlive); };
    let timer = clock.after(updateMs, keepAlive);
    lease = { stop: () => timer.cancel() };
  }

  if (cri) {
    const policy = nodePolicy({
      rootDir: opts.rootDir,
      seccompDefault: s.seccompDefault ?? false,
      allowedUnsafeSysctls: s.allowedUnsafeSysctls ?? [],
      kernel: parseKernelVersion(facts.kernelVersion),
      swapBehavior: s.memorySwap?.swapBehavior === 'LimitedSwap' ? 'LimitedSwap' : 'NoSwap',
      cgroupV2: kernel.some(k => k.feature === 'cgroup v2' && k.supported),
      nodeMemoryBytes: facts.memoryBytes,
      swapCapacityBytes: swap,
    });
    const internal = () => addressesNow().filter(a => a.type === 'InternalIP').map(a => a.address);
    devices = await startDevices({
      rootDir: opts.rootDir,
      activePods: () => (pods?.synced() ? pods.workers.pods().filter(p => !['Succeeded', 'Failed'].includes(pods!.statusOf(p.metadata.uid)?.phase ?? p.status?.phase ?? '')) : undefined),
      // a device list that changed is reported at once, not at the next status round
      onChange: () => void reporter?.registered.then(() => reporter?.syncNow()).catch(() => undefined),
      podResourcesGet: gates.enabled('KubeletPodResourcesGet'),
      clock,
      log,
    });
    const deviceManager = devices.manager;
    pods = await startPodManager({
      cri,
      client: apiClient,
      nodeName,
      nodeUid: () => reporter?.uid(),
      nodeIPs: () => (opts.nodeIPs?.length ? opts.nodeIPs : internal()),
      rootDir: opts.rootDir,
      sandbox: { podLogsDir, nodeName, clusterDNS: s.clusterDNS ?? [], clusterDomain: s.clusterDomain ?? '', hostResolvConf: await hostResolvConf(s.resolvConf ?? '/etc/resolv.conf'), nodeIPs: () => (opts.nodeIPs?.length ? opts.nodeIPs : internal()) },
      staticPodPath: s.staticPodPath || '/etc/kubernetes/manifests',
      fileCheckMs: parseDuration(s.fileCheckFrequency ?? '20s'),
      resyncMs: parseDuration(s.syncFrequency ?? '1m'),
      maxContainerRestartPeriodMs: s.crashLoopBackOff?.maxContainerRestartPeriod ? parseDuration(s.crashLoopBackOff.maxContainerRestartPeriod) : undefined,
      // pressure refuses first, in the kubelet's admission order
      // devices last: they are allocated only to a pod every other check let in
      admit: pod => { const refused = eviction.admit(pod) ?? shutdown?.admit(pod); if (refused) return { admit: false as const, ...refused }; const verdict = policy.admit(pod); return verdict.admit ? deviceManager.admit(pod) : verdict; },
      deviceOptions: (pod, c) => deviceManager.runOptions(pod, c),
      // before the first report (or with no API to report to), CPU and memory, which need no disk figures
      nodeAllocatable: () => allocatable ?? (({ cpu, memory }) => ({ cpu, memory }))(nodeResources(facts, 0, s.maxPods, s).allocatable),
      resourceCheckpoints: gates.enabled('InPlacePodVerticalScaling'),
      imagePullVerification: gates.enabled('KubeletEnsureSecretPulledImages') ? { policy: (s.imagePullCredentialsVerificationPolicy || 'NeverVerifyPreloadedImages') as VerificationPolicy, allowlist: s.preloadedImagesVerificationAllowlist ?? [] } : undefined,
      // the kubelet's cgroupsPerQOS (on unless turned off); with the systemd driver the runtime would need slices orch does not make
      podCgroups: s.cgroupsPerQOS !== false && (s.cgroupDriver ?? 'cgroupfs') === 'cgroupfs' ? { settings: { cgroupRoot: s.cgroupRoot ?? '', cgroupDriver: 'cgroupfs' }, fs: hostCgroupFs() } : undefined,
      sandboxPolicy: pod => policy.sandbox(pod),
      containerPolicy: (pod, c) => policy.container(pod, c),
      clock,
      log,
    });
    const manager = pods;
    // graceful node shutdown: on with its gate and a grace period, through logind on the system bus
    const periods = gates.enabled('GracefulNodeShutdown') ? shutdownPeriods(s, gates.enabled('GracefulNodeShutdownBasedOnPodPriority')) : [];
    if (periods.length) {
      const env = opts.env ?? process.env;
      shutdown = startShutdownManager({
        periods, rootDir: opts.rootDir, stateFile: gates.enabled('GracefulNodeShutdownBasedOnPodPriority'), clock, log,
        logind: { address: opts.systemBusAddress ?? (env.DBUS_SYSTEM_BUS_ADDRESS || defaultSystemBusAddress), dropInDir: opts.logindDropInDir ?? defaultLogindDropInDir },
        pods: () => manager.workers.pods().filter(p => !['Succeeded', 'Failed'].includes((manager.statusOf(p.metadata.uid)?.phase ?? p.status?.phase) as string)),
        fail: (pod, grace, why) => manager.fail(pod, grace, why),
        syncNodeStatus: () => void reporter?.syncNow().catch(err => log.warn('node status update failed', { err: String(err) })),
        nodeEvent: (reason, message) => nodeEvents?.record({ apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName, uid: nodeName } }, 'Normal', reason, message),
      });
    }
    metrics.countRuntime(() => manager.reader.latest());
    manager.onStatus((pod, status) => metrics.podStatus(pod, status));
    gc = startNodeGc({
      cri, reader: manager.reader, known: uid => manager.workers.has(uid), disk: opts.diskStats ?? realDiskStats,
      imageGCHighThresholdPercent: s.imageGCHighThresholdPercent ?? 85,
      imageGCLowThresholdPercent: s.imageGCLowThresholdPercent ?? 80,
      imageMinimumGCAgeMs: parseDuration(s.imageMinimumGCAge ?? '2m'),
      containerLogMaxSize: parseQuantity(s.containerLogMaxSize ?? '10Mi') ?? 10 * 1024 * 1024,
      containerLogMaxFiles: s.containerLogMaxFiles ?? 5,
      containerLogMonitorIntervalMs: parseDuration(s.containerLogMonitorInterval ?? '10s'),
      clock, log,
      nodeEvent: (reason, message) => nodeEvents?.record({ apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName, uid: nodeName } }, 'Warning', reason, message),
    });
    if (apiClient) localVolumes = startLocalPathCleanup(apiClient, nodeName, log.with({ component: 'local-path' }));
    server.route('/containerLogs', containerLogsRoute((ns, pod, container, previous) => findLogFile(manager.workers, manager.reader, podLogsDir, ns, pod, container, previous, uid => manager.statusOf(uid))));
    const streaming = { cri, targets: streamTargets(manager.workers, manager.reader), log: log.with({ component: 'streaming' }) };
    server.upgradeRoute('/exec', commandRoute('exec', streaming));
    server.upgradeRoute('/attach', commandRoute('attach', streaming));
    server.upgradeRoute('/portForward', portForwardRoute(streaming));
    // not offered on non-Linux nodes, as Kubernetes offers it on none but Linux
    if (gates.enabled('PodInfoAPI') && process.platform !== 'linux') log.warn('the pod info API (PodInfoAPI) is offered on Linux only');
    else if (gates.enabled('PodInfoAPI')) {
      const view = localPods({ pods: () => manager.workers.pods(), statusOf: uid => manager.statusOf(uid), onStatus: l => manager.onStatus(l), synced: () => manager.synced() });
      podInfo = await startPodInfoServer({ rootDir: opts.rootDir, view, log: log.with({ component: 'pod-info' }) });
    }
    // the gate off, the path does not exist (404), as on a kubelet without it
    if (gates.enabled('ContainerCheckpoint')) {
      await ensureCheckpointsDir(opts.rootDir);
      const cp = checkpointer({ cri, rootDir: opts.rootDir, defaultTimeoutMs: parseDuration(s.runtimeRequestTimeout ?? '2m') });
      server.route('/checkpoint', checkpointRoute(checkpointBackend(manager.workers, manager.reader, cp)));
    }
  }

  // the SystemdWatchdog gate off: no keep-alives, whatever the supervisor asks for
  const watchdog = gates.enabled('SystemdWatchdog') ? startWatchdog({ env: opts.env ?? process.env, healthy: () => health.failures().length === 0, log, clock }) : undefined;

  return {
    nodeName,
    facts,
    kernel,
    health,
    port: server.port,
    healthzPort: healthz?.port,
    servingCertificate: servingCsr?.ready,
    reporter,
    pods,
    shutdown,
    async stop() {
      stopping = true;
      housekeeping.cancel();
      gc?.stop();
      localVolumes?.stop();
      watchdog?.stop();
      servingCsr?.stop();
      await podInfo?.stop();
      await shutdown?.stop();
      await pods?.stop();
      await devices?.stop();
      reporter?.stop();
      lease?.stop();
      await Promise.all([server.close(), healthz?.close()]);
      // a client the agent made for itself is its own to close
      if (!opts.client) apiClient?.close();
    },
  };
}
