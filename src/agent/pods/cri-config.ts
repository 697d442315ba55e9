// The CRI requests for a pod: its sandbox configuration and each container's configuration,
// from the pod spec and what the agent prepared on the host (volumes, environment).

import { parseQuantity } from '../../api/quantity.ts';
import { CONTAINER_HASH, CONTAINER_RESTART_COUNT, TERMINATION_GRACE, TERMINATION_LOG_HOST, TERMINATION_MESSAGE_PATH, TERMINATION_MESSAGE_POLICY, containerLabels, sandboxLabels } from './cri-labels.ts';
import { containerHash } from './container-hash.ts';
import { criStopSignal } from './stop-signal.ts';
import { expandReferences as expandArg } from './env.ts';
import type { Container, Pod } from './types.ts';
import { ephemeralPidNamespace } from './ephemeral-containers.ts';
import type { CriContainerConfig, CriInput, CriLinuxContainerResources, CriLinuxContainerSecurityContext, CriLinuxPodSandboxConfig, CriMount, CriNamespaceOption, CriPodSandboxConfig, CriPortMapping, CriProtocol } from '../cri/generated/cri-types.ts';
import type { ResolvConf } from '../../dns/resolv-conf.ts';
import { podDnsConfig } from './dns-config.ts';

export interface SandboxSettings {
  podLogsDir: string;
  nodeName: string;
  clusterDNS: string[];
  clusterDomain: string;
  /** the host's resolv.conf as the resolvConf setting names it (undefined: that setting is empty) */
  hostResolvConf?: ResolvConf;
  nodeIPs?: () => string[];
}

/** the pod's DNS settings and the warnings forming them gave (DNSConfigForming, MissingClusterDNS) */
export const sandboxDns = (pod: Pod, s: SandboxSettings) => podDnsConfig(pod, { clusterDNS: s.clusterDNS, clusterDomain: s.clusterDomain, hostResolvConf: s.hostResolvConf, nodeIPs: s.nodeIPs?.() ?? [] });

export const podLogDir = (podLogsDir: string, pod: Pod) => `${podLogsDir}/${pod.metadata.namespace}_${pod.metadata.name}_${pod.metadata.uid}`;

/** the pod's namespaces; an ephemeral container with a target joins that container's processes */
function namespaceOptions(pod: Pod, pidTarget?: string): CriInput<CriNamespaceOption> {
  return {
    network: pod.spec.hostNetwork ? 'NODE' : 'POD',
    ...ephemeralPidNamespace(pod.spec.hostPID ? 'NODE' : pod.spec.shareProcessNamespace ? 'POD' : 'CONTAINER', pidTarget),
    ipc: pod.spec.hostIPC ? 'NODE' : 'POD',
  };
}

export function sandboxConfig(pod: Pod, attempt: number, s: SandboxSettings, extraLinux: CriInput<CriLinuxPodSandboxConfig> = {}): CriInput<CriPodSandboxConfig> {
  const ports: Array<CriInput<CriPortMapping>> = [];
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort) continue;
      ports.push({ protocol: (p.protocol ?? 'TCP') as CriProtocol, containerPort: p.containerPort, hostPort: p.hostPort, hostIp: p.hostIP ?? '' });
    }
  }
  // every pod's, as the kubelet sends it: the runtime writes the pod's resolv.conf from it
  const dns = sandboxDns(pod, s).config;
  const dnsConfig = { servers: dns.nameservers, searches: dns.searches, options: dns.options };
  const privileged = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].some(c => c.securityContext?.privileged);
  return {
    metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid, attempt },
    // none with the host's network: the container shares the host's UTS namespace too, where
    // runc refuses to set one (the kubelet leaves it empty; the runtime reports the host's)
    hostname: pod.spec.hostNetwork ? '' : (pod.spec.hostname ?? pod.metadata.name).slice(0, 63),
    logDirectory: podLogDir(s.podLogsDir, pod),
    dnsConfig,
    portMappings: ports,
    labels: sandboxLabels(pod),
    annotations: { ...(pod.metadata.annotations ?? {}) },
    linux: { securityContext: { namespaceOptions: namespaceOptions(pod), privileged }, ...extraLinux },
  };
}

function quantity(q: unknown, scale: number): number | undefined {
  if (q === undefined) return undefined;
  const v = parseQuantity(String(q));
  return v === undefined ? undefined : Math.round(v * scale);
}
const milli = (q: unknown) => quantity(q, 1000);
const bytes = (q: unknown) => quantity(q, 1);

/** cgroup settings from requests and limits, as the kubelet converts them */
export function linuxResources(c: Container): CriInput<CriLinuxContainerResources> {
  const req = c.resources?.requests ?? {};
  const lim = c.resources?.limits ?? {};
  const cpuReq = milli(req.cpu ?? lim.cpu);
  const cpuLim = milli(lim.cpu);
  const memLim = bytes(lim.memory);
  const out: CriInput<CriLinuxContainerResources> = { cpuShares: cpuReq === undefined ? 2 : Math.max(2, Math.floor((cpuReq * 1024) / 1000)) };
  if (cpuLim !== undefined) { out.cpuPeriod = 100_000; out.cpuQuota = Math.max(1000, Math.floor((cpuLim * 100_000) / 1000)); }
  if (memLim !== undefined) out.memoryLimitInBytes = memLim;
  return out;
}

export interface ContainerInputs {
  pod: Pod;
  container: Container;
  restartCount: number;
  envs: Array<{ key: string; value: string }>;
  /** the container's volume mounts, prepared by volumes/container-mounts.ts (subPaths resolved on the host) */
  mounts: Array<CriInput<CriMount>>;
  /** extra fields for linux.securityContext (seccomp) and linux.resources (swap) */
  securityContext?: CriInput<CriLinuxContainerSecurityContext>;
  resources?: CriInput<CriLinuxContainerResources>;
  /** the host file mounted at the container's terminationMessagePath */
  terminationLog?: string;
  /** an ephemeral container's target: the runtime id of the container whose processes it sees */
  pidTarget?: string;
}

export function containerConfig(inp: ContainerInputs): CriInput<CriContainerConfig> {
  const { pod, container: c } = inp;
  const mounts: Array<CriInput<CriMount>> = [...inp.mounts];
  const vars = new Map(inp.envs.map(e => [e.key, e.value]));
  if (inp.terminationLog) mounts.push({ containerPath: c.terminationMessagePath || '/dev/termination-log', hostPath: inp.terminationLog, readonly: false, propagation: 'PROPAGATION_PRIVATE' });
  const expand = (list: unknown) => (Array.isArray(list) ? list.map(x => expandArg(String(x), vars)) : []);
  const sc = c.securityContext ?? {};
  const podSc = pod.spec.securityContext ?? {};
  const runAsUser = sc.runAsUser ?? podSc.runAsUser;
  const runAsGroup = sc.runAsGroup ?? podSc.runAsGroup;
  return {
    metadata: { name: c.name, attempt: inp.restartCount },
    image: { image: c.image },
    command: expand(c.command),
    args: expand(c.args),
    workingDir: c.workingDir ?? '',
    // the reference facts type KeyValue.value as bytes: the same bytes on the wire as a string
    envs: inp.envs.map(e => ({ key: e.key, value: Buffer.from(e.value) })),
    mounts,
    labels: containerLabels(pod, c.name),
    annotations: {
      [CONTAINER_HASH]: containerHash(c),
      [CONTAINER_RESTART_COUNT]: String(inp.restartCount),
      [TERMINATION_GRACE]: String(pod.spec.terminationGracePeriodSeconds ?? 30),
      ...(inp.terminationLog ? {
        [TERMINATION_LOG_HOST]: inp.terminationLog,
        [TERMINATION_MESSAGE_PATH]: c.terminationMessagePath || '/dev/termination-log',
        [TERMINATION_MESSAGE_POLICY]: c.terminationMessagePolicy || 'File',
      } : {}),
    },
    ...(c.lifecycle?.stopSignal ? { stopSignal: criStopSignal(c.lifecycle.stopSignal) } : {}),
    logPath: `${c.name}/${inp.restartCount}.log`,
    stdin: !!c.stdin,
    stdinOnce: !!c.stdinOnce,
    tty: !!c.tty,
    linux: {
      resources: { ...linuxResources(c), ...(inp.resources ?? {}) },
      securityContext: {
        namespaceOptions: namespaceOptions(pod, inp.pidTarget),
        privileged: !!sc.privileged,
        readonlyRootfs: !!sc.readOnlyRootFilesystem,
        ...(runAsUser !== undefined ? { runAsUser: { value: runAsUser } } : {}),
        ...(runAsGroup !== undefined ? { runAsGroup: { value: runAsGroup } } : {}),
        ...(sc.capabilities ? { capabilities: { addCapabilities: sc.capabilities.add ?? [], dropCapabilities: sc.capabilities.drop ?? [] } } : {}),
        noNewPrivs: sc.allowPrivilegeEscalation === false,
        // the fsGroup first, as the kubelet adds it, so the container can use the volumes' group
        supplementalGroups: [...(podSc.fsGroup != null ? [podSc.fsGroup] : []), ...(podSc.supplementalGroups ?? [])],
        ...(inp.securityContext ?? {}),
      },
    },
  };
}
