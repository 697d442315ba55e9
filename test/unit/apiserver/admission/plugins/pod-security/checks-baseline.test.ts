// The baseline checks, one table row per behaviour: the pod, the level and version asked for,
// and the refusal's text exactly as kube-apiserver words it ('' = allowed).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { c, verdict, type Spec } from './pods.ts';
import type { Version } from '../../../../../../src/apiserver/admission/plugins/pod-security/policy.ts';

type Row = [what: string, spec: Spec, expected: string, version?: Version, annotations?: Record<string, string>];
const one = (sc: Record<string, unknown>, extra: Record<string, unknown> = {}): Spec => ({ containers: [c('c', sc, extra)] });

const rows: Row[] = [
  ['a plain pod', one({}), ''],
  ['privileged containers, init first', { initContainers: [c('i', { privileged: true })], containers: [c('a', { privileged: true }), c('b', { privileged: false })] }, 'privileged (containers "i", "a" must not set securityContext.privileged=true)'],
  ['capabilities beyond the default set, sorted', { containers: [c('a', { capabilities: { add: ['SYS_TIME', 'CHOWN', 'NET_ADMIN'] } }), c('b', { capabilities: { add: ['NET_ADMIN'] } })] }, 'non-default capabilities (containers "a", "b" must not include "NET_ADMIN", "SYS_TIME" in securityContext.capabilities.add)'],
  ['the default set may be added', one({ capabilities: { add: ['AUDIT_WRITE', 'KILL', 'NET_BIND_SERVICE', 'SYS_CHROOT'] } }), ''],
  ['host namespaces', { hostNetwork: true, hostPID: true, hostIPC: true, containers: [c('c')] }, 'host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)'],
  ['hostPath volumes', { containers: [c('c')], volumes: [{ name: 'h', hostPath: { path: '/' } }, { name: 'e', emptyDir: {} }, { name: 'g', hostPath: { path: '/x' } }] }, 'hostPath volumes (volumes "h", "g")'],
  ['host ports, sorted as strings', { containers: [c('a', {}, { ports: [{ containerPort: 1, hostPort: 9 }, { containerPort: 2, hostPort: 8080 }] }), c('b', {}, { ports: [{ containerPort: 3 }] })] }, 'hostPort (container "a" uses hostPorts 8080, 9)'],
  ['two containers on one host port', { containers: [c('a', {}, { ports: [{ containerPort: 1, hostPort: 80 }] }), c('b', {}, { ports: [{ containerPort: 1, hostPort: 80 }] })] }, 'hostPort (containers "a", "b" use hostPort 80)'],
  ['probe and lifecycle hosts (v1.34+): containers and hosts sorted', { containers: [c('z', {}, { livenessProbe: { httpGet: { port: 1, host: 'b.example' } }, lifecycle: { preStop: { tcpSocket: { port: 1, host: 'a.example' } } } }), c('a', {}, { startupProbe: { tcpSocket: { port: 1, host: 'b.example' } } })] }, 'probe or lifecycle host (containers "a", "z" use probe or lifecycle hosts "a.example", "b.example")'],
  ['probe hosts before v1.34', { containers: [c('a', {}, { readinessProbe: { httpGet: { port: 1, host: 'x' } } })] }, '', 33],
  ['probe host at v1.34', { containers: [c('a', {}, { readinessProbe: { httpGet: { port: 1, host: 'x' } } })] }, 'probe or lifecycle host (container "a" uses probe or lifecycle host "x")', 34],
  ['procMount Unmasked', { containers: [c('a', { procMount: 'Unmasked' }), c('b', { procMount: 'Default' })] }, 'procMount (container "a" must not set securityContext.procMount to "Unmasked")'],
  ['procMount Unmasked in a user namespace (v1.35+)', { hostUsers: false, containers: [c('a', { procMount: 'Unmasked' })] }, ''],
  ['procMount Unmasked in a user namespace at v1.34', { hostUsers: false, containers: [c('a', { procMount: 'Unmasked' })] }, 'procMount (container "a" must not set securityContext.procMount to "Unmasked")', 34],
  ['sysctls outside the safe set, in the pod\'s order', { securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1' }, { name: 'kernel.shm_rmid_forced', value: '1' }, { name: 'kernel.msgmax', value: '1' }] }, containers: [c('c')] }, 'forbidden sysctls (net.core.somaxconn, kernel.msgmax)'],
  ['ip_local_reserved_ports before v1.27', { securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1' }] }, containers: [c('c')] }, 'forbidden sysctls (net.ipv4.ip_local_reserved_ports)', 26],
  ['ip_local_reserved_ports from v1.27', { securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1' }] }, containers: [c('c')] }, '', 27],
  ['tcp_keepalive_time before v1.29', { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_keepalive_time', value: '1' }] }, containers: [c('c')] }, 'forbidden sysctls (net.ipv4.tcp_keepalive_time)', 28],
  ['tcp_keepalive_time from v1.29', { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_keepalive_time', value: '1' }] }, containers: [c('c')] }, '', 29],
  ['tcp_rmem before v1.32', { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem', value: '1' }] }, containers: [c('c')] }, 'forbidden sysctls (net.ipv4.tcp_rmem)', 31],
  ['tcp_wmem from v1.32', { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_wmem', value: '1' }] }, containers: [c('c')] }, '', 32],
  ['tcp_slow_start_after_idle is not safe in 1.36', { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_slow_start_after_idle', value: '1' }] }, containers: [c('c')] }, 'forbidden sysctls (net.ipv4.tcp_slow_start_after_idle)'],
  ['Windows hostProcess on pod and containers', { securityContext: { windowsOptions: { hostProcess: true } }, containers: [c('a', { windowsOptions: { hostProcess: true } })] }, 'hostProcess (pod and container "a" must not set securityContext.windowsOptions.hostProcess=true)'],
  ['Windows hostProcess on a container', { containers: [c('a', { windowsOptions: { hostProcess: true } }), c('b', { windowsOptions: { hostProcess: true } })] }, 'hostProcess (containers "a", "b" must not set securityContext.windowsOptions.hostProcess=true)'],
];

test('baseline checks at latest unless the row says: each violation in Kubernetes\' words', () => {
  for (const [what, spec, expected, version = 'latest', annotations] of rows) assert.equal(verdict('baseline', version, spec, annotations), expected, what);
});

const apparmor: Row[] = [
  ['RuntimeDefault and Localhost fields, allowed annotations', { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [c('a', { appArmorProfile: { type: 'Localhost', localhostProfile: 'p' } })] }, '', 'latest', { 'container.apparmor.security.beta.kubernetes.io/a': 'localhost/p', 'container.apparmor.security.beta.kubernetes.io/b': 'runtime/default', 'container.apparmor.security.beta.kubernetes.io/c': '' }],
  ['the pod\'s field', { securityContext: { appArmorProfile: { type: 'Unconfined' } }, containers: [c('a')] }, 'forbidden AppArmor profile (pod must not set AppArmor profile type to "Unconfined")'],
  ['pod, containers and annotations together', { securityContext: { appArmorProfile: { type: 'Unconfined' } }, containers: [c('a', { appArmorProfile: { type: 'Unconfined' } }), c('b', { appArmorProfile: { type: 'Other' } })] }, 'forbidden AppArmor profiles (pod and containers "a", "b" and annotations must not set AppArmor profile type to "Other", "Unconfined", "container.apparmor.security.beta.kubernetes.io/a="unconfined"", "container.apparmor.security.beta.kubernetes.io/b="x/y"")', 'latest', { 'container.apparmor.security.beta.kubernetes.io/b': 'x/y', 'container.apparmor.security.beta.kubernetes.io/a': 'unconfined' }],
  ['one annotation, at v1.0 too', { containers: [c('a')] }, 'forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/a="unconfined"")', 0, { 'container.apparmor.security.beta.kubernetes.io/a': 'unconfined' }],
];

test('AppArmor: the appArmorProfile fields and the deprecated annotations', () => {
  for (const [what, spec, expected, version = 'latest', annotations] of apparmor) assert.equal(verdict('baseline', version, spec, annotations), expected, what);
});

const selinux: Row[] = [
  ['allowed types, level only', { securityContext: { seLinuxOptions: { type: 'container_t', level: 's0:c1' } }, containers: [c('a', { seLinuxOptions: { type: 'container_init_t' } }), c('b', { seLinuxOptions: { type: 'container_kvm_t' } })] }, ''],
  ['container_engine_t from v1.31', one({ seLinuxOptions: { type: 'container_engine_t' } }), ''],
  ['container_engine_t before v1.31', one({ seLinuxOptions: { type: 'container_engine_t' } }), 'seLinuxOptions (container "c" set forbidden securityContext.seLinuxOptions: type "container_engine_t")', 30],
  ['types, user and role from pod and containers', { securityContext: { seLinuxOptions: { type: 'spc_t', user: 'u' } }, containers: [c('a', { seLinuxOptions: { role: 'r' } }), c('b', { seLinuxOptions: { type: 'unconfined_t' } })] }, 'seLinuxOptions (pod and containers "a", "b" set forbidden securityContext.seLinuxOptions: types "spc_t", "unconfined_t"; user may not be set; role may not be set)'],
];

test('SELinux: type, user and role', () => {
  for (const [what, spec, expected, version = 'latest'] of selinux) assert.equal(verdict('baseline', version, spec), expected, what);
});

const seccomp: Row[] = [
  ['Unconfined on pod and containers (v1.19+)', { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a', { seccompProfile: { type: 'Unconfined' } }), c('b', { seccompProfile: { type: 'RuntimeDefault' } })] }, 'seccompProfile (pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined")'],
  ['fields are not read before v1.19', one({ seccompProfile: { type: 'Unconfined' } }), '', 18],
  ['annotations before v1.19, sorted', { containers: [c('a'), c('b')] }, 'seccompProfile (forbidden annotations container.seccomp.security.alpha.kubernetes.io/a="unconfined", seccomp.security.alpha.kubernetes.io/pod="unconfined")', 18, { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined', 'container.seccomp.security.alpha.kubernetes.io/a': 'unconfined', 'container.seccomp.security.alpha.kubernetes.io/b': 'docker/default', 'container.seccomp.security.alpha.kubernetes.io/gone': 'unconfined' }],
  ['annotations are not read from v1.19', one({}), '', 19, { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' }],
];

test('seccomp: the annotations before v1.19, the fields from then', () => {
  for (const [what, spec, expected, version = 'latest', annotations] of seccomp) assert.equal(verdict('baseline', version, spec, annotations), expected, what);
});

test('baseline lists its violations by check id, and privileged allows anything', () => {
  const spec = { hostPID: true, securityContext: { sysctls: [{ name: 'a.b', value: '1' }], seccompProfile: { type: 'Unconfined' } }, containers: [c('a', { privileged: true, capabilities: { add: ['SYS_ADMIN'] }, procMount: 'Unmasked', appArmorProfile: { type: 'Unconfined' }, seLinuxOptions: { user: 'u' } }, { ports: [{ containerPort: 1, hostPort: 1 }] })], volumes: [{ name: 'v', hostPath: { path: '/' } }] };
  assert.equal(verdict('baseline', 'latest', spec), [
    'forbidden AppArmor profile (container "a" must not set AppArmor profile type to "Unconfined")',
    'non-default capabilities (container "a" must not include "SYS_ADMIN" in securityContext.capabilities.add)',
    'host namespaces (hostPID=true)', 'hostPath volumes (volume "v")', 'hostPort (container "a" uses hostPort 1)',
    'privileged (container "a" must not set securityContext.privileged=true)',
    'procMount (container "a" must not set securityContext.procMount to "Unmasked")',
    'seLinuxOptions (container "a" set forbidden securityContext.seLinuxOptions: user may not be set)',
    'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
    'forbidden sysctls (a.b)',
  ].join(', '));
  assert.equal(verdict('privileged', 'latest', spec), '');
});
