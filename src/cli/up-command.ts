// `orch up`: a one-node cluster on this machine in one process. The API server on the embedded
// store, the controllers and the scheduler, and a node agent, each the same component that runs
// apart under its own command; the pods run on a containerd of orch's own where this machine can
// run one (root, containerd, runc and the CNI plugins installed), on a containerd socket given
// to it, or else on the simulated runtime. Ctrl-C stops everything; the next `orch up` on the
// same data dir brings it all back, pods included.

import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { apiServerFeatureGates } from '../api/feature-gates.ts';
import type { Logger } from '../api/log.ts';
import { loggerFromFlags, loggingFlags } from './logging-flags.ts';
import { mergeKubeconfig } from '../client/kubeconfig-merge.ts';
import { createClient, type Client } from '../client/rest.ts';
import type { RunningServer } from '../apiserver/start.ts';
import { flag, signalled, UsageError, type Command } from './command.ts';
import { simNodeCount, simNodeFlags } from './sim-nodes-command.ts';
import { controllerFlags, controllerOptions } from './controller-flags.ts';
import { startControlPlane } from './control-plane.ts';
import { featureGatesFlag, readFeatureGates } from './feature-gates-flag.ts';
import { authorizationFlags, authorizationOptions } from './authorization-flags.ts';
import { admissionFlags, admissionOptions } from './admission-flags.ts';
import { auditFlags, auditOptions } from './audit-flags.ts';
import { flowControlFlags, flowControlOptions } from './flow-control-flags.ts';
import { defaultDataDir, runDir, upStateFile, type UpState } from './up-paths.ts';
import { unmountAllUnder } from '../agent/pods/volumes/host-mounts.ts';
import { dnsFlags } from './dns-command.ts';
import { startUpDns } from './up-dns.ts';
import { releaseCompileCache } from './compile-cache.ts';

interface Runtime {
  state: Omit<UpState, 'pid'>;
  says: string;
  /** where pods reach services on this host (orch's own containerd: the pod bridge's address) */
  podGateway?: string;
  stop(): Promise<void>;
}

/** the runtime the flags and this machine allow, started */
async function startRuntime(values: Record<string, string | boolean | undefined>, dataDir: string, log: Logger): Promise<Runtime> {
  const endpoint = String(values['container-runtime-endpoint'] ?? '');
  const wanted = String(values.runtime);
  if (!['auto', 'containerd', 'sim'].includes(wanted)) throw new UsageError(`--runtime must be auto, containerd or sim, not ${JSON.stringify(wanted)}`);
  const run = runDir(dataDir);
  if (endpoint) {
    const { connectCri } = await import('../agent/cri/client.ts');
    const cri = await connectCri(endpoint, { timeoutMs: 5000 });
    try {
      const v = await cri.version({});
      return { state: { runtime: 'external', endpoint }, says: `${v.runtimeName} ${v.runtimeVersion} at ${endpoint}`, stop: async () => {} };
    } catch (err) {
      throw new Error(`the container runtime at ${endpoint} does not answer: ${(err as Error).message}`);
    } finally {
      cri.close();
    }
  }
  const { embeddedContainerdMissing, startEmbeddedContainerd } = await import('../agent/containerd/embedded.ts');
  const missing = wanted === 'sim' ? undefined : embeddedContainerdMissing();
  if (wanted !== 'sim' && !missing) {
    const containerd = await startEmbeddedContainerd({ rootDir: join(dataDir, 'containerd'), stateDir: join(run, 'containerd'), podSubnet: String(values['pod-subnet']), log: log.with({ component: 'containerd' }) });
    return { state: { runtime: 'containerd', endpoint: containerd.endpoint, address: containerd.address }, says: `containerd (orch's own, socket ${containerd.address})`, podGateway: containerd.podGateway, stop: () => containerd.stop() };
  }
  if (wanted === 'containerd') throw new Error(`cannot run containerd: ${missing}`);
  const { startRuntimeSim } = await import('../runtime-sim/server.ts');
  // checkpoints on: the node's checkpoint endpoint works end to end on the simulated runtime
  const sim = await startRuntimeSim({ socket: join(run, 'runtime-sim.sock'), podSubnet: String(values['pod-subnet']), checkpoint: true, log: log.with({ component: 'runtime-sim' }) });
  return { state: { runtime: 'sim', endpoint: sim.endpoint }, says: `simulated (orch runtime-sim${missing ? `, since ${missing}` : ', as --runtime sim asks'})`, stop: () => sim.stop() };
}

/**
 * where pods will reach this host's servers: the pod bridge's gateway, when orch's own containerd
 * will run them (known from the subnet before the bridge exists, so that the API server can
 * advertise it and have it in its certificate from the start)
 */
async function expectedPodGateway(values: Record<string, string | boolean | undefined>): Promise<string | undefined> {
  if (values['container-runtime-endpoint'] || values.runtime === 'sim') return undefined;
  const [{ embeddedContainerdMissing }, { podGateway }] = await Promise.all([import('../agent/containerd/embedded.ts'), import('../agent/containerd/pod-bridge.ts')]);
  if (embeddedContainerdMissing()) return undefined;
  // a bad subnet: the runtime's start says so, in its own words
  try { return podGateway(String(values['pod-subnet'])).address; } catch { return undefined; }
}

/** the service proxy as system:kube-proxy, with its own certificate from the cluster CA, kept beside the cluster's others */
async function startProxy(server: RunningServer, certDir: string, nodeName: string, values: Record<string, string | boolean | undefined>, dryRun: boolean, log: Logger) {
  const [{ ensureClientCert }, { startServiceProxy }] = await Promise.all([import('../apiserver/cluster-certs.ts'), import('../proxy/service-proxy.ts')]);
  const pair = await ensureClientCert({ dir: certDir, caCert: server.clusterCA.cert, caKey: server.clusterCA.key }, 'kube-proxy', { commonName: 'system:kube-proxy', organizations: [] }, log);
  const client = createClient({ server: server.url, ca: Buffer.from(server.clusterCA.cert), cert: Buffer.from(pair.cert), key: Buffer.from(pair.key) }, { userAgent: 'orch-proxy' });
  const proxy = await startServiceProxy({ client, nodeName, clusterCIDRs: [String(values['pod-subnet'])], dryRun, table: String(values['proxy-nft-table']), log: log.with({ component: 'proxy' }) });
  return { stop: async () => { await proxy.stop(true); client.close(); } };
}

/** waits until the node reports Ready */
async function nodeReady(client: Client, name: string): Promise<void> {
  for (;;) {
    const node = await client.get<{ status?: { conditions?: Array<{ type: string; status: string }> } }>(`/api/v1/nodes/${name}`).catch(() => undefined);
    if (node?.status?.conditions?.some(c => c.type === 'Ready' && c.status === 'True')) return;
    await new Promise(r => setTimeout(r, 50));
  }
}

/** a client for node `nodeName` with its own certificate from the cluster CA, kept in certDir as the kubelet keeps its own */
async function nodeClient(server: RunningServer, certDir: string, nodeName: string): Promise<Client> {
  const [{ readCurrent, saveCurrent, usableFor }, { issueClientCert }] = await Promise.all([import('../agent/certificates/client-credentials.ts'), import('../apiserver/cluster-certs.ts')]);
  let pair = await readCurrent(certDir);
  // reissued a month before it expires, as the cluster's other certificates are
  if (!pair || !usableFor(pair, nodeName, Date.now() + 30 * 24 * 3600_000)) {
    pair = await issueClientCert({ caCert: server.clusterCA.cert, caKey: server.clusterCA.key }, { commonName: `system:node:${nodeName}`, organizations: ['system:nodes'] });
    await saveCurrent(certDir, pair);
  }
  return createClient({ server: server.url, ca: Buffer.from(server.clusterCA.cert), cert: Buffer.from(pair.cert), key: Buffer.from(pair.key) }, { userAgent: 'orch-agent' });
}

/** the user's kubeconfig with this cluster merged in as context `orch` */
async function writeUserKubeconfig(adminKubeconfig: string): Promise<string> {
  const path = join(homedir(), '.kube', 'config');
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const existing = await readFile(path, 'utf8').catch(() => '');
  await writeFile(path, mergeKubeconfig(existing, await readFile(adminKubeconfig, 'utf8'), 'orch'), { mode: 0o600 });
  return path;
}

export const upCommand: Command = {
  name: 'up',
  summary: 'Start a one-node cluster here: API server, controllers, scheduler and a node agent on containerd or the simulated runtime.',
  usage: 'orch up [--data-dir DIR] [--port N] [--runtime auto|containerd|sim] [--write-kubeconfig] [flags]',
  flags: {
    'data-dir': { type: 'string', default: defaultDataDir(), description: 'database, certificates, images and the node\'s state; the next `orch up` on it brings everything back' },
    port: { type: 'string', default: '6443', description: 'the API server\'s HTTPS port; 0 picks a free port' },
    'bind-address': { type: 'string', default: '127.0.0.1', description: 'address the API server listens on' },
    runtime: { type: 'string', default: 'auto', description: 'auto: containerd (orch\'s own) when this machine can run it, else the simulated runtime; containerd; sim' },
    'container-runtime-endpoint': { type: 'string', default: '', description: 'a running CRI runtime to use instead (unix:///run/containerd/containerd.sock)' },
    'pod-subnet': { type: 'string', default: '10.42.0.0/16', description: 'the addresses pods get' },
    'node-name': { type: 'string', default: '', description: 'the node\'s name (default: this machine\'s hostname)' },
    'agent-port': { type: 'string', default: '10250', description: 'the node agent\'s HTTPS port (logs, stats); 0 picks a free port' },
    'proxy-nft-table': { type: 'string', default: 'orch-proxy', description: 'the nftables table of the service proxy (two clusters on one machine need two)' },
    'write-kubeconfig': { type: 'boolean', default: false, description: 'merge the admin kubeconfig into ~/.kube/config as context "orch" and make it current' },
    'sim-nodes': { type: 'string', default: '0', description: 'simulated nodes to run beside this one, in this process (as `orch sim-nodes` runs them)' },
    ...simNodeFlags,
    'dns-port': { type: 'string', default: '53', description: 'the port cluster DNS listens on, on the pods\' gateway address (else on 127.0.0.1); 0 picks a free port' },
    ...dnsFlags,
    'feature-gates': featureGatesFlag,
    ...authorizationFlags,
    ...admissionFlags,
    ...auditFlags,
    ...loggingFlags,
    ...flowControlFlags,
  },
  async run(values) {
    const started = Date.now();
    const log = loggerFromFlags(values);
    const port = flag(() => { const n = Number(values.port); if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`invalid --port ${JSON.stringify(values.port)}`); return n; });
    const simNodes = simNodeCount(values['sim-nodes'], '--sim-nodes');
    const agentPort = flag(() => { const n = Number(values['agent-port']); if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`invalid --agent-port ${JSON.stringify(values['agent-port'])}`); return n; });
    const features = readFeatureGates(values['feature-gates'], apiServerFeatureGates);
    if (!/^[a-zA-Z][a-zA-Z0-9_-]*$/.test(String(values['proxy-nft-table']))) throw new UsageError(`invalid --proxy-nft-table ${JSON.stringify(values['proxy-nft-table'])}`);
    const admission = admissionOptions(values);
    const dataDir = resolve(String(values['data-dir']));
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const say = (line: string) => process.stdout.write(`${line}\n`);
    const since = () => `${Date.now() - started} ms`;

    // the runtime starts while the API server opens its store
    const gateway = await expectedPodGateway(values);
    const runtimeStarting = startRuntime(values, dataDir, log);
    runtimeStarting.catch(() => undefined);
    let plane;
    try {
      plane = await startControlPlane({
        // the node's serving certificate comes from the cluster CA (below), so the API server verifies it
        server: { dataDir, port, bindAddress: String(values['bind-address']), advertiseAddress: gateway, features, log, ...authorizationOptions(values), ...admission, ...auditOptions(values), ...flowControlOptions(values), kubeletCertificateAuthority: join(dataDir, 'pki', 'ca.crt') },
        // every controller with kube-controller-manager's defaults; local-path volumes in the data dir
        controllers: controllerOptions({ ...Object.fromEntries(Object.entries(controllerFlags).map(([k, f]) => [k, f.default])), 'local-path-dir': join(dataDir, 'storage') }),
        schedulerNames: ['default-scheduler'],
        log,
      });
    } catch (err) {
      await runtimeStarting.then(r => r.stop(), () => undefined);
      process.stderr.write(`Error: ${(err as Error).message}\n`);
      return 1;
    }
    const { server, client } = plane;
    say(`orch up: API server ready at ${server.url} (${since()}), data in ${dataDir}`);
    let runtime;
    try {
      runtime = await runtimeStarting;
    } catch (err) {
      await plane.stop();
      if (err instanceof UsageError) throw err;
      process.stderr.write(`Error: ${(err as Error).message}\n`);
      return 1;
    }
    say(`runtime: ${runtime.says}`);
    // pods reach the API server (the `kubernetes` Service) on the bridge's address, never beyond this machine
    // (a wildcard bind address already covers it)
    const wildcard = ['0.0.0.0', '::'].includes(String(values['bind-address']));
    if (runtime.podGateway && !wildcard) {
      await server.listenAlso(runtime.podGateway).catch(err => say(`warning: the API server cannot listen on the pods' gateway ${runtime.podGateway}: ${(err as Error).message}; pods will not reach it`));
    }

    const [{ startAgent }, { criRuntimeProbe }, { connectCri }, { loadAgentConfig }] = await Promise.all([
      import('../agent/agent.ts'), import('../agent/runtime-probe.ts'), import('../agent/cri/client.ts'), import('../agent/config/load.ts'),
    ]);
    const settings = await loadAgentConfig({});
    Object.assign(settings, {
      port: agentPort,
      healthzPort: 0,
      // a developer's machine may have swap; the pods get none (swapBehavior NoSwap)
      failSwapOn: false,
      containerRuntimeEndpoint: runtime.state.endpoint,
      podLogsDir: join(dataDir, 'pod-logs'),
      staticPodPath: join(dataDir, 'manifests'),
      // the endpoint certified by the cluster through a CSR, which this process approves for its own node
      serverTLSBootstrap: true,
    });
    // cluster DNS where pods reach this host, before the agent, which names it in their resolv.conf
    const dns = await startUpDns(values, client, runtime.podGateway, log, say);
    if (dns) Object.assign(settings, { clusterDNS: [dns.clusterIP], clusterDomain: dns.zone });
    const { startNodeServingApprover } = await import('../controllers/certificates/node-serving-approver.ts');
    let approver: { stop(): void } | undefined;
    const endpoint = runtime.state.endpoint;
    let agent;
    try {
      agent = await startAgent({
        settings,
        // the node acts as itself (system:node:<name>), so the Node authorizer bounds it
        connect: nodeName => {
          approver = startNodeServingApprover(client, nodeName, log.with({ component: 'serving-approver' }));
          return nodeClient(server, join(dataDir, 'agent', 'pki'), nodeName);
        },
        clusterCA: server.clusterCA.cert,
        hostnameOverride: String(values['node-name'] ?? '') || undefined,
        rootDir: join(dataDir, 'agent'),
        certDir: join(dataDir, 'agent', 'pki'),
        runtime: criRuntimeProbe(() => connectCri(endpoint, { timeoutMs: 10_000 })),
        cri: await connectCri(endpoint, { timeoutMs: 120_000 }),
        log: log.with({ component: 'agent' }),
      });
    } catch (err) {
      process.stderr.write(`Error: the node agent did not start: ${(err as Error).message}\n`);
      await dns?.stop();
      approver?.stop();
      await runtime.stop();
      await plane.stop();
      return 1;
    }
    let proxy;
    try {
      // on the simulated runtime there are no packets: the rules are computed, not written
      const { availableMode } = await import('../proxy/service-proxy.ts');
      const noTool = runtime.state.runtime !== 'sim' && !availableMode();
      if (noTool) say('service proxy: neither nft nor iptables is installed (apt-get install nftables), so Service addresses do not route; rules computed only');
      proxy = await startProxy(server, join(dataDir, 'pki'), agent.nodeName, values, runtime.state.runtime === 'sim' || noTool, log);
    } catch (err) {
      process.stderr.write(`Error: the service proxy did not start: ${(err as Error).message}\n`);
      await agent.stop();
      await runtime.stop();
      await plane.stop();
      return 1;
    }
    await nodeReady(client, agent.nodeName);
    // logs, exec and port-forward reach the node once its endpoint has the cluster's certificate
    let waited: NodeJS.Timeout | undefined;
    const certified = await Promise.race([agent.servingCertificate?.then(() => true), new Promise<false>(r => { waited = setTimeout(() => r(false), 30_000); })]);
    clearTimeout(waited);
    if (certified === false) say('warning: the node\'s serving certificate request is not approved yet (kubectl get csr); logs, exec and port-forward fail until it is');
    say(`node ${agent.nodeName} Ready (${since()})`);
    // NetworkPolicy on this node's pods, beside its agent as a CNI's policy agent runs; the
    // simulated runtime has no packets: its rules are computed, not programmed
    const { startNodeNetworkPolicy } = await import('../network-policy/node-component.ts');
    const networkPolicy = await startNodeNetworkPolicy({ client, node: agent.nodeName, simulated: runtime.state.runtime === 'sim', log });
    let pool: { stop(): void } | undefined;
    if (simNodes) {
      const { startSimNodePool } = await import('../sim-nodes/sim-node-pool.ts');
      pool = await startSimNodePool({ client, count: simNodes, prefix: String(values['sim-node-prefix']), log: log.with({ component: 'sim-nodes' }) });
      say(`${simNodes} simulated nodes registered (${since()})`);
    }
    releaseCompileCache();
    await writeFile(upStateFile(dataDir), JSON.stringify({ pid: process.pid, ...runtime.state } satisfies UpState), { mode: 0o600 });
    if (values['write-kubeconfig']) {
      const path = await writeUserKubeconfig(server.kubeconfigPath);
      say(`kubeconfig merged into ${path} as context "orch" (now current); try:\n  kubectl get nodes`);
    } else {
      say(`kubeconfig: ${server.kubeconfigPath}; try:\n  export KUBECONFIG=${server.kubeconfigPath}\n  kubectl get nodes`);
    }

    await signalled();
    say('orch up: stopping');
    pool?.stop();
    await networkPolicy.stop();
    await proxy.stop();
    await agent.stop();
    await dns?.stop();
    approver?.stop();
    await runtime.stop();
    // the pods of a runtime orch ran are gone with it, and so go their volumes' mounts (token and
    // secret tmpfs), which would otherwise keep the data dir from being removed; the next start
    // makes them again. An external runtime's pods run on, mounts and all, as the kubelet leaves them.
    if (runtime.state.runtime !== 'external') await unmountAllUnder(join(dataDir, 'agent', 'pods'));
    await plane.stop();
    await rm(upStateFile(dataDir), { force: true });
    return 0;
  },
};
