import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { podQosClass } from '../../../src/api/qos.ts';
import { localhostProfileProblem, seccompProfileFor, validateSeccompProfile } from '../../../src/agent/security/seccomp.ts';
import { admitSysctls, sandboxSysctls } from '../../../src/agent/security/sysctls.ts';
import { nodePolicy } from '../../../src/agent/security/node-policy.ts';
import { ContainerStartError } from '../../../src/agent/pods/config-errors.ts';

const pod = (spec: Record<string, any> = {}) => ({ metadata: { name: 'p', namespace: 'd', uid: 'u' }, spec: { containers: [{ name: 'c' }], ...spec } });

test('QoS classes as Kubernetes derives them', () => {
  assert.equal(podQosClass(pod()), 'BestEffort');
  assert.equal(podQosClass(pod({ containers: [{ name: 'c', resources: { limits: { cpu: '1', memory: '1Gi' } } }] })), 'Guaranteed');
  assert.equal(podQosClass(pod({ containers: [{ name: 'c', resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } }] })), 'Guaranteed');
  assert.equal(podQosClass(pod({ containers: [{ name: 'c', resources: { requests: { memory: '1Gi' } } }] })), 'Burstable');
  assert.equal(podQosClass(pod({ containers: [{ name: 'c', resources: { limits: { cpu: '1', memory: '1Gi' } } }, { name: 'd' }] })), 'Burstable');
});

test('seccomp: the container beats the pod, privileged is Unconfined, Localhost resolves under the directory', () => {
  const p = pod({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } } });
  assert.deepEqual(seccompProfileFor(p, {}, '/var/lib/agent/seccomp'), { profileType: 'RuntimeDefault' });
  assert.deepEqual(seccompProfileFor(p, { securityContext: { seccompProfile: { type: 'Unconfined' } } }, '/s'), { profileType: 'Unconfined' });
  assert.deepEqual(seccompProfileFor(p, { securityContext: { privileged: true } }, '/s'), { profileType: 'Unconfined' });
  assert.deepEqual(seccompProfileFor(pod(), { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' } } }, '/s'), { profileType: 'Localhost', localhostRef: '/s/profiles/audit.json' });
  assert.deepEqual(seccompProfileFor(pod(), {}, '/s'), { profileType: 'Unconfined' });
  assert.deepEqual(seccompProfileFor(pod(), {}, '/s', true), { profileType: 'RuntimeDefault' });
});

test('seccomp profiles are checked against the OCI schema', () => {
  assert.deepEqual(validateSeccompProfile({ defaultAction: 'SCMP_ACT_ERRNO', defaultErrnoRet: 1, architectures: ['SCMP_ARCH_X86_64'], syscalls: [{ names: ['read', 'write'], action: 'SCMP_ACT_ALLOW' }, { names: ['personality'], action: 'SCMP_ACT_ALLOW', args: [{ index: 0, value: 8, op: 'SCMP_CMP_EQ' }] }] }), []);
  assert.deepEqual(validateSeccompProfile({ defaultAction: 'SCMP_ACT_NOTIFY' }), ['defaultAction: SCMP_ACT_NOTIFY cannot be the default action']);
  assert.deepEqual(validateSeccompProfile({ defaultAction: 'ALLOW' }), ['defaultAction: unsupported value "ALLOW"']);
  assert.deepEqual(validateSeccompProfile({ defaultAction: 'SCMP_ACT_LOG', syscalls: [{ names: ['write'], action: 'SCMP_ACT_NOTIFY' }, { names: [], action: 'SCMP_ACT_ALLOW', args: [{ index: 7, value: 1, op: 'EQ' }] }] }), [
    'syscalls[0]: SCMP_ACT_NOTIFY cannot be used for write',
    'syscalls[1].names: must be a non-empty list of syscall names',
    'syscalls[1].args[0].index: must be 0 to 5',
    'syscalls[1].args[0].op: unsupported value "EQ"',
  ]);
});

test('a missing or invalid Localhost profile is a CreateContainerError; a good one passes', async () => {
  const root = await mkdtemp(join(tmpdir(), 'orch-seccomp-'));
  try {
    const dir = join(root, 'seccomp');
    await mkdir(dir);
    await writeFile(join(dir, 'ok.json'), JSON.stringify({ defaultAction: 'SCMP_ACT_ALLOW' }));
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ defaultAction: 'NOPE' }));
    const policy = nodePolicy({ rootDir: root, seccompDefault: false, allowedUnsafeSysctls: [], kernel: [6, 1, 0], swapBehavior: 'NoSwap', cgroupV2: false, nodeMemoryBytes: 1, swapCapacityBytes: 0 });
    const c = (file: string) => ({ name: 'c', securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: file } } });
    assert.deepEqual((await policy.container(pod(), c('ok.json'))).securityContext, { seccomp: { profileType: 'Localhost', localhostRef: join(dir, 'ok.json') } });
    await assert.rejects(policy.container(pod(), c('missing.json')), (e: unknown) => e instanceof ContainerStartError && e.reason === 'CreateContainerError' && e.message === `cannot load seccomp profile "${join(dir, 'missing.json')}": open ${join(dir, 'missing.json')}: no such file or directory`);
    await assert.rejects(policy.container(pod(), c('bad.json')), /decoding seccomp profile failed: .*defaultAction: unsupported value "NOPE"/);
    assert.match(String(await localhostProfileProblem({ profileType: 'Localhost', localhostRef: '/etc/passwd' }, dir)), /outside the seccomp profile directory/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('sysctls: safe ones pass where the kernel has them, others need allowedUnsafeSysctls and a namespace', () => {
  const withSysctls = (names: string[], spec: Record<string, any> = {}) => pod({ securityContext: { sysctls: names.map(name => ({ name, value: '1' })) }, ...spec });
  assert.deepEqual(admitSysctls(withSysctls(['net.ipv4.ip_local_port_range', 'kernel.shm_rmid_forced']), [], [6, 1, 0]), { admit: true });
  assert.deepEqual(admitSysctls(withSysctls(['net.core.somaxconn']), [], [6, 1, 0]), { admit: false, reason: 'SysctlForbidden', message: 'forbidden sysctl: "net.core.somaxconn" not allowlisted' });
  assert.deepEqual(admitSysctls(withSysctls(['net.core.somaxconn']), ['net.core.*'], [6, 1, 0]), { admit: true });
  assert.deepEqual(admitSysctls(withSysctls(['kernel.panic']), ['kernel.*'], [6, 1, 0]).admit, false, 'not namespaced: never allowed');
  assert.deepEqual(admitSysctls(withSysctls(['net.ipv4.tcp_rmem']), [], [4, 14, 0]), { admit: false, reason: 'SysctlForbidden', message: 'forbidden sysctl: "net.ipv4.tcp_rmem" not allowlisted: sysctl "net.ipv4.tcp_rmem" requires kernel 4.15 or later (this node runs 4.14.0)' });
  assert.deepEqual(admitSysctls(withSysctls(['net.ipv4.tcp_syncookies'], { hostNetwork: true }), [], [6, 1, 0]), { admit: false, reason: 'SysctlForbidden', message: 'forbidden sysctl: "net.ipv4.tcp_syncookies" not allowed with host net enabled' });
  assert.deepEqual(sandboxSysctls(withSysctls(['net/ipv4/ip_local_port_range'])), { 'net.ipv4.ip_local_port_range': '1' });
});

test('swap: LimitedSwap gives Burstable containers their share on cgroup v2; NoSwap none', async () => {
  const gib = 1024 ** 3;
  const base = { rootDir: '/tmp', seccompDefault: false, allowedUnsafeSysctls: [], kernel: [6, 1, 0] as [number, number, number], cgroupV2: true, nodeMemoryBytes: 8 * gib, swapCapacityBytes: 4 * gib };
  const burstable = pod({ containers: [{ name: 'c', resources: { requests: { memory: '1Gi' } } }] });
  const c = burstable.spec.containers[0]!;
  assert.deepEqual((await nodePolicy({ ...base, swapBehavior: 'LimitedSwap' }).container(burstable, c)).resources, { unified: { 'memory.swap.max': String(gib / 2) } });
  assert.deepEqual((await nodePolicy({ ...base, swapBehavior: 'NoSwap' }).container(burstable, c)).resources, { unified: { 'memory.swap.max': '0' } });
  const guaranteed = pod({ containers: [{ name: 'c', resources: { limits: { cpu: '1', memory: '1Gi' } } }] });
  assert.deepEqual((await nodePolicy({ ...base, swapBehavior: 'LimitedSwap' }).container(guaranteed, guaranteed.spec.containers[0]!)).resources, { unified: { 'memory.swap.max': '0' } });
  assert.deepEqual((await nodePolicy({ ...base, cgroupV2: false, swapBehavior: 'LimitedSwap' }).container(burstable, c)).resources, {});
});
