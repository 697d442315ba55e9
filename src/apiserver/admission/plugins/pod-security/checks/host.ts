// What reaches the host: host namespaces, hostPath volumes, host ports, and (from v1.34) a
// `host` in probes and lifecycle handlers, which would let the kubelet connect anywhere.

import type { CoreV1LifecycleHandler, CoreV1Probe } from '../../../../../schema/generated/types.ts';
import { joinQuote, named, pluralize, sortedSet } from '../words.ts';
import { containersOf, type Check, type CheckFn } from './types.ts';

const hostNamespaces: CheckFn = (_m, s) => {
  const set = [s.hostNetwork && 'hostNetwork=true', s.hostPID && 'hostPID=true', s.hostIPC && 'hostIPC=true'].filter((x): x is string => !!x);
  return set.length ? { reason: 'host namespaces', detail: set.join(', ') } : undefined;
};

const hostPathVolumes: CheckFn = (_m, s) => {
  const bad = (s.volumes ?? []).filter(v => v.hostPath != null).map(v => v.name);
  return bad.length ? { reason: 'hostPath volumes', detail: named('volume', 'volumes', bad) } : undefined;
};

const hostPorts: CheckFn = (_m, s) => {
  const names: string[] = [];
  const ports: string[] = [];
  for (const c of containersOf(s)) {
    const used = (c.ports ?? []).filter(p => p.hostPort).map(p => String(p.hostPort));
    if (used.length) { names.push(c.name); ports.push(...used); }
  }
  if (!names.length) return undefined;
  const sorted = sortedSet(ports);
  return { reason: 'hostPort', detail: `${named('container', 'containers', names)} ${pluralize('uses', 'use', names.length)} ${pluralize('hostPort', 'hostPorts', sorted.length)} ${sorted.join(', ')}` };
};

type Handler = Pick<CoreV1Probe | CoreV1LifecycleHandler, 'httpGet' | 'tcpSocket'> | undefined;
const hostsOf = (h: Handler) => [h?.httpGet?.host, h?.tcpSocket?.host].filter((x): x is string => !!x);

// containers and hosts are both listed sorted here, unlike in the other checks
const hostProbesAndHostLifecycle: CheckFn = (_m, s) => {
  const names: string[] = [];
  const hosts: string[] = [];
  for (const c of containersOf(s)) {
    const found = [c.livenessProbe, c.readinessProbe, c.startupProbe, c.lifecycle?.postStart, c.lifecycle?.preStop].flatMap(hostsOf);
    if (found.length) { names.push(c.name); hosts.push(...found); }
  }
  if (!names.length) return undefined;
  const containers = sortedSet(names);
  const forbidden = sortedSet(hosts);
  return { reason: 'probe or lifecycle host', detail: `${named('container', 'containers', containers)} ${pluralize('uses', 'use', containers.length)} ${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', forbidden.length)} ${joinQuote(forbidden)}` };
};

export const hostChecks: Check[] = [
  { id: 'hostNamespaces', level: 'baseline', versions: [{ minimumVersion: 0, run: hostNamespaces }] },
  { id: 'hostPathVolumes', level: 'baseline', versions: [{ minimumVersion: 0, run: hostPathVolumes }] },
  { id: 'hostPorts', level: 'baseline', versions: [{ minimumVersion: 0, run: hostPorts }] },
  { id: 'hostProbesAndHostLifecycle', level: 'baseline', versions: [{ minimumVersion: 34, run: hostProbesAndHostLifecycle }] },
];
