// The Pod Security Standards' checks (baseline and restricted), each a pure function of a pod's
// metadata and spec answering what it violates in Kubernetes' words: a short reason and a
// detail. Checks are kept in Kubernetes' order (by check id), so a refusal lists them as
// kube-apiserver does; a restricted check that replaces a baseline one names it.

import type { CoreV1Container, CoreV1PodSpec } from '../../../../schema/generated/types.ts';
import { byCount, distinct, named } from './words.ts';

export type Level = 'privileged' | 'baseline' | 'restricted';
export interface Violation { reason: string; detail: string }
export interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** the baseline check this restricted one replaces */
  overrides?: string;
  run(spec: CoreV1PodSpec): Violation | undefined;
}

type Container = CoreV1Container & { name: string };
const containersOf = (s: CoreV1PodSpec): Container[] => [...(s.initContainers ?? []), ...(s.containers ?? []), ...((s.ephemeralContainers ?? []) as Container[])];
const windows = (s: CoreV1PodSpec) => s.os?.name === 'windows';
const joined = (parts: string[]) => parts.filter(Boolean).join('; ');

const baselineCapabilities = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);
const restrictedVolumeTypes = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret']);
const safeSysctls = new Set(['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_local_reserved_ports', 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes', 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']);

/** containers adding capabilities outside `allowed`: the detail, or '' */
function addedCapabilities(cs: Container[], allowed: (c: string) => boolean): string {
  const bad = cs.filter(c => c.securityContext?.capabilities?.add?.some(x => !allowed(x)));
  if (!bad.length) return '';
  const caps = distinct(bad.flatMap(c => c.securityContext!.capabilities!.add!.filter(x => !allowed(x)))).sort();
  return `${named('container', 'containers', bad.map(c => c.name))} must not include ${caps.map(x => JSON.stringify(x)).join(', ')} in securityContext.capabilities.add`;
}

export const checks: readonly Check[] = [
  { id: 'allowPrivilegeEscalation', level: 'restricted', run(s) {
    if (windows(s)) return undefined;
    const bad = containersOf(s).filter(c => c.securityContext?.allowPrivilegeEscalation !== false);
    return bad.length ? { reason: 'allowPrivilegeEscalation != false', detail: `${named('container', 'containers', bad.map(c => c.name))} must set securityContext.allowPrivilegeEscalation=false` } : undefined;
  } },
  { id: 'capabilities_baseline', level: 'baseline', run(s) {
    const detail = addedCapabilities(containersOf(s), c => baselineCapabilities.has(c));
    return detail ? { reason: 'non-default capabilities', detail } : undefined;
  } },
  { id: 'capabilities_restricted', level: 'restricted', overrides: 'capabilities_baseline', run(s) {
    if (windows(s)) return undefined;
    const cs = containersOf(s);
    const noDrop = cs.filter(c => !c.securityContext?.capabilities?.drop?.includes('ALL'));
    const detail = joined([
      noDrop.length ? `${named('container', 'containers', noDrop.map(c => c.name))} must set securityContext.capabilities.drop=["ALL"]` : '',
      addedCapabilities(cs, c => c === 'NET_BIND_SERVICE'),
    ]);
    return detail ? { reason: 'unrestricted capabilities', detail } : undefined;
  } },
  { id: 'hostNamespaces', level: 'baseline', run(s) {
    const set = [s.hostNetwork && 'hostNetwork=true', s.hostPID && 'hostPID=true', s.hostIPC && 'hostIPC=true'].filter(Boolean) as string[];
    return set.length ? { reason: 'host namespaces', detail: set.join(', ') } : undefined;
  } },
  { id: 'hostPathVolumes', level: 'baseline', run(s) {
    const bad = (s.volumes ?? []).filter(v => v.hostPath).map(v => v.name);
    return bad.length ? { reason: 'hostPath volumes', detail: named('volume', 'volumes', bad) } : undefined;
  } },
  { id: 'hostPorts', level: 'baseline', run(s) {
    const bad = containersOf(s).filter(c => c.ports?.some(p => p.hostPort));
    if (!bad.length) return undefined;
    const ports = distinct(bad.flatMap(c => c.ports!.filter(p => p.hostPort).map(p => p.hostPort!)));
    return { reason: 'hostPort', detail: `${named('container', 'containers', bad.map(c => c.name))} ${byCount('uses', 'use', bad.length)} ${byCount('hostPort', 'hostPorts', ports.length)} ${ports.join(', ')}` };
  } },
  { id: 'privileged', level: 'baseline', run(s) {
    const bad = containersOf(s).filter(c => c.securityContext?.privileged);
    return bad.length ? { reason: 'privileged', detail: `${named('container', 'containers', bad.map(c => c.name))} must not set securityContext.privileged=true` } : undefined;
  } },
  { id: 'procMount', level: 'baseline', run(s) {
    const bad = containersOf(s).filter(c => c.securityContext?.procMount && c.securityContext.procMount !== 'Default');
    if (!bad.length) return undefined;
    const values = distinct(bad.map(c => c.securityContext!.procMount!));
    return { reason: 'procMount', detail: `${named('container', 'containers', bad.map(c => c.name))} must not set securityContext.procMount to ${values.map(v => JSON.stringify(v)).join(', ')}` };
  } },
  { id: 'restrictedVolumes', level: 'restricted', overrides: 'hostPathVolumes', run(s) {
    const bad = (s.volumes ?? []).map(v => ({ name: v.name, type: Object.keys(v).find(k => k !== 'name' && (v as unknown as Record<string, unknown>)[k] != null) })).filter(v => v.type && !restrictedVolumeTypes.has(v.type));
    if (!bad.length) return undefined;
    const types = distinct(bad.map(v => v.type!));
    return { reason: 'restricted volume types', detail: `${named('volume', 'volumes', bad.map(v => v.name))} ${byCount('uses', 'use', bad.length)} ${byCount('restricted volume type', 'restricted volume types', types.length)} ${types.map(t => JSON.stringify(t)).join(', ')}` };
  } },
  { id: 'runAsNonRoot', level: 'restricted', run(s) {
    if (windows(s)) return undefined;
    const pod = s.securityContext;
    const podNonRoot = pod?.runAsNonRoot === true || (pod?.runAsUser != null && pod.runAsUser !== 0);
    const cs = containersOf(s);
    const explicit = cs.filter(c => c.securityContext?.runAsNonRoot === false);
    const implicit = podNonRoot ? [] : cs.filter(c => c.securityContext?.runAsNonRoot == null && !(c.securityContext?.runAsUser != null && c.securityContext.runAsUser !== 0));
    const detail = joined([
      pod?.runAsNonRoot === false ? 'pod must not set securityContext.runAsNonRoot=false' : '',
      explicit.length ? `${named('container', 'containers', explicit.map(c => c.name))} must not set securityContext.runAsNonRoot=false` : '',
      implicit.length ? `pod or ${named('container', 'containers', implicit.map(c => c.name))} must set securityContext.runAsNonRoot=true` : '',
    ]);
    return detail ? { reason: 'runAsNonRoot != true', detail } : undefined;
  } },
  { id: 'runAsUser', level: 'restricted', run(s) {
    if (windows(s)) return undefined;
    const bad = containersOf(s).filter(c => c.securityContext?.runAsUser === 0);
    const detail = joined([
      s.securityContext?.runAsUser === 0 ? 'pod must not set runAsUser=0' : '',
      bad.length ? `${named('container', 'containers', bad.map(c => c.name))} must not set runAsUser=0` : '',
    ]);
    return detail ? { reason: 'runAsUser=0', detail } : undefined;
  } },
  { id: 'seccompProfile_baseline', level: 'baseline', run(s) {
    const bad = containersOf(s).filter(c => c.securityContext?.seccompProfile?.type === 'Unconfined');
    const detail = joined([
      s.securityContext?.seccompProfile?.type === 'Unconfined' ? 'pod must not set securityContext.seccompProfile.type to "Unconfined"' : '',
      bad.length ? `${named('container', 'containers', bad.map(c => c.name))} must not set securityContext.seccompProfile.type to "Unconfined"` : '',
    ]);
    return detail ? { reason: 'seccompProfile', detail } : undefined;
  } },
  { id: 'seccompProfile_restricted', level: 'restricted', overrides: 'seccompProfile_baseline', run(s) {
    if (windows(s)) return undefined;
    const good = (t: string | undefined) => t === 'RuntimeDefault' || t === 'Localhost';
    const podType = s.securityContext?.seccompProfile?.type;
    const cs = containersOf(s);
    const badSet = cs.filter(c => c.securityContext?.seccompProfile?.type != null && !good(c.securityContext.seccompProfile.type));
    const unset = good(podType) ? [] : cs.filter(c => c.securityContext?.seccompProfile?.type == null);
    const badTypes = distinct(badSet.map(c => c.securityContext!.seccompProfile!.type!));
    const detail = joined([
      podType != null && !good(podType) ? `pod must not set securityContext.seccompProfile.type to ${JSON.stringify(podType)}` : '',
      badSet.length ? `${named('container', 'containers', badSet.map(c => c.name))} must not set securityContext.seccompProfile.type to ${badTypes.map(t => JSON.stringify(t)).join(', ')}` : '',
      unset.length ? `pod or ${named('container', 'containers', unset.map(c => c.name))} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` : '',
    ]);
    return detail ? { reason: 'seccompProfile', detail } : undefined;
  } },
  { id: 'sysctls', level: 'baseline', run(s) {
    const bad = (s.securityContext?.sysctls ?? []).map(x => x.name).filter(n => !safeSysctls.has(n));
    return bad.length ? { reason: 'forbidden sysctls', detail: bad.join(', ') } : undefined;
  } },
  { id: 'windowsHostProcess', level: 'baseline', run(s) {
    const pod = s.securityContext?.windowsOptions?.hostProcess === true;
    const bad = containersOf(s).filter(c => c.securityContext?.windowsOptions?.hostProcess === true);
    if (!pod && !bad.length) return undefined;
    const who = pod ? (bad.length ? `pod and ${named('container', 'containers', bad.map(c => c.name))}` : 'pod') : named('container', 'containers', bad.map(c => c.name));
    return { reason: 'hostProcess', detail: `${who} must not set securityContext.windowsOptions.hostProcess=true` };
  } },
];

/** what a pod spec violates at a level, in Kubernetes' order */
export function violations(level: Level, spec: CoreV1PodSpec): Violation[] {
  if (level === 'privileged') return [];
  const active = checks.filter(c => c.level === 'baseline' || level === 'restricted');
  const replaced = new Set(active.map(c => c.overrides).filter(Boolean));
  return active.filter(c => !replaced.has(c.id)).map(c => c.run(spec)).filter((v): v is Violation => !!v);
}
