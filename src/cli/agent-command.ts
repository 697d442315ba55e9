// `orch agent`: the node agent. With --kubeconfig it registers this machine as a Node and keeps
// its status and lease; without, it runs standalone.

import { featureGatesFlag, featureGatesFromFlag } from './feature-gates-flag.ts';
import { agentFeatureSpecs } from '../agent/features.ts';
import { join, resolve } from 'node:path';
import { loggerFromFlags, loggingFlags } from './logging-flags.ts';
import { parseDuration } from '../api/duration.ts';
import { AgentConfigError, loadAgentConfig } from '../agent/config/load.ts';
import { validateConfig } from '../agent/config/validate.ts';
import { acquireLockFile, type HeldLock } from '../agent/lock-file.ts';
import { loadKubeconfig } from '../client/kubeconfig.ts';
import { createClient } from '../client/rest.ts';
import { flag, signalled, type Command } from './command.ts';
import { startClientCertificates } from '../agent/certificates/client-manager.ts';
import { releaseCompileCache } from './compile-cache.ts';

/** the CA a kubeconfig trusts, which the agent's endpoint trusts for client certificates too */
async function clusterCAOf(path: string): Promise<string | undefined> {
  return (await loadKubeconfig(path).catch(() => undefined))?.ca?.toString('utf8');
}

/** "a=b,c=d" → { a: 'b', c: 'd' } */
export function parseLabels(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of s.split(',').map(x => x.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new Error(`invalid --node-labels entry "${part}": want key=value`);
    out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

export const agentCommand: Command = {
  name: 'agent',
  summary: 'Run the node agent: register this machine as a Node, heartbeat, serve its endpoint.',
  usage: 'orch agent [--kubeconfig FILE] [--config FILE] [--config-dir DIR] [--root-dir DIR] [flags]',
  flags: {
    kubeconfig: { type: 'string', default: '', description: 'kubeconfig for the API server; without it the agent runs standalone' },
    'bootstrap-kubeconfig': { type: 'string', default: '', description: 'kubeconfig with a bootstrap token: when --kubeconfig is missing or its certificate no longer fits, the agent asks for a client certificate with it (a CSR), then writes --kubeconfig' },
    'rotate-certificates': { type: 'boolean', default: false, description: 'renew the client certificate through the certificates API as it nears expiry (as rotateCertificates in --config)' },
    config: { type: 'string', default: '', description: 'KubeletConfiguration file (kubelet.config.k8s.io/v1beta1)' },
    'config-dir': { type: 'string', default: '', description: 'directory of drop-in configuration files (*.conf), merged over --config in lexical order' },
    'root-dir': { type: 'string', default: '/var/lib/agent', description: 'the agent\'s state directory' },
    'cert-dir': { type: 'string', default: '', description: 'where the serving certificate is kept (default <root-dir>/pki)' },
    'hostname-override': { type: 'string', default: '', description: 'the node name and Hostname address instead of the machine\'s hostname' },
    'node-ip': { type: 'string', default: '', description: 'comma-separated addresses to report as InternalIP' },
    'node-labels': { type: 'string', default: '', description: 'labels to add when registering the node (key=value,...)' },
    'container-runtime-endpoint': { type: 'string', default: '', description: 'CRI endpoint (overrides containerRuntimeEndpoint in --config)' },
    'lock-file': { type: 'string', default: '', description: 'a lock file only one agent may hold' },
    'exit-on-lock-contention': { type: 'boolean', default: false, description: 'exit when another agent asks for the lock file' },
    'feature-gates': featureGatesFlag,
    ...loggingFlags,
  },
  async run(values) {
    // the agent and its gRPC stack load only when this command runs, not for every orch command
    const [{ startAgent }, { criRuntimeProbe }, { connectCri }] = await Promise.all([import('../agent/agent.ts'), import('../agent/runtime-probe.ts'), import('../agent/cri/client.ts')]);
    const log = loggerFromFlags(values);
    let config;
    try {
      config = await loadAgentConfig({ configFile: String(values.config ?? '') || undefined, configDir: String(values['config-dir'] ?? '') || undefined });
    } catch (err) {
      if (!(err instanceof AgentConfigError)) throw err;
      process.stderr.write(`Error: ${err.message}\n`);
      return 1;
    }
    if (values['container-runtime-endpoint']) config.containerRuntimeEndpoint = String(values['container-runtime-endpoint']);
    // the flag's gates go over the configuration file's, as the kubelet merges them
    const flagGates = featureGatesFromFlag(values['feature-gates'], agentFeatureSpecs());
    config.featureGates = { ...config.featureGates, ...flagGates };
    // checked again with the flag's gates in (fields allowed only under a gate), as the kubelet validates after merging them
    const gateDependent = validateConfig(config);
    if (gateDependent.length) {
      process.stderr.write(`Error: invalid configuration: ${gateDependent.join('; ')}\n`);
      return 1;
    }
    const labels = flag(() => parseLabels(String(values['node-labels'] ?? '')));
    const rootDir = resolve(String(values['root-dir']));
    const bootstrap = String(values['bootstrap-kubeconfig'] ?? '');
    if (bootstrap && !values.kubeconfig) {
      process.stderr.write('Error: --bootstrap-kubeconfig needs --kubeconfig, the file the agent writes its credentials to\n');
      return 1;
    }
    if (values['rotate-certificates']) config.rotateCertificates = true;
    // with bootstrapping or rotation the node's credentials are managed once its name is known
    const managed = !!bootstrap || !!config.rotateCertificates;
    const kubeconfig = values.kubeconfig && !managed ? await loadKubeconfig(String(values.kubeconfig)) : undefined;
    const client = kubeconfig ? createClient(kubeconfig, { userAgent: 'orch-agent' }) : undefined;
    const kubeconfigPath = resolve(String(values.kubeconfig ?? ''));
    const certDir = String(values['cert-dir'] ?? '') ? resolve(String(values['cert-dir'])) : join(rootDir, 'pki');
    const connect = values.kubeconfig && managed ? (nodeName: string) => startClientCertificates({
      kubeconfigPath, bootstrapKubeconfigPath: bootstrap ? resolve(bootstrap) : undefined, certDir, nodeName, rotate: !!config.rotateCertificates, log: log.with({ component: 'certificates' }),
    }) : undefined;
    const endpoint = config.containerRuntimeEndpoint;
    let lock: HeldLock | undefined;
    let contended: () => void = () => {};
    if (values['lock-file']) {
      try {
        lock = await acquireLockFile(resolve(String(values['lock-file'])), { exitOnContention: !!values['exit-on-lock-contention'], onContention: () => contended() });
      } catch (err) {
        process.stderr.write(`Error: ${(err as Error).message}\n`);
        return 1;
      }
    }
    let agent;
    try {
      agent = await startAgent({
        settings: config,
        client,
        connect,
        clusterCA: kubeconfig?.ca?.toString('utf8') ?? (managed ? await clusterCAOf(bootstrap || kubeconfigPath) : undefined),
        hostnameOverride: String(values['hostname-override'] ?? '') || undefined,
        nodeLabels: labels,
        nodeIPs: String(values['node-ip'] ?? '').split(',').map(x => x.trim()).filter(Boolean),
        rootDir,
        certDir,
        runtime: criRuntimeProbe(() => connectCri(endpoint, { timeoutMs: 10_000 })),
        cri: await connectCri(endpoint, { timeoutMs: parseDuration(config.runtimeRequestTimeout), imageEndpoint: config.imageServiceEndpoint || undefined }),
        log,
      });
    } catch (err) {
      process.stderr.write(`Error: ${(err as Error).message}\n`);
      client?.close();
      await lock?.release();
      return 1;
    }
    releaseCompileCache();
    process.stdout.write(`orch agent running: node ${agent.nodeName}, port ${agent.port}${client || connect ? '' : ' (standalone)'}\n`);
    await new Promise<void>(done => {
      void signalled().then(done);
      contended = () => { log.warn('another agent wants the lock file; exiting'); done(); };
    });
    await agent.stop();
    client?.close();
    await lock?.release();
    return 0;
  },
};
