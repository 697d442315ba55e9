import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { milliCpuToQuota, milliCpuToShares, podCgroupParent, podCgroupResources } from '../../../../src/agent/pods/pod-cgroups.ts';
import { ensurePodCgroup, removePodCgroup, sharesToWeight } from '../../../../src/agent/pods/pod-cgroup-files.ts';
import type { Container, Pod } from '../../../../src/agent/pods/types.ts';

const pod = (containers: Container[], initContainers: Container[] = []): Pod => ({ metadata: { name: 'p', namespace: 'ns', uid: 'u-1' }, spec: { containers, initContainers } });
const res = (requests?: Record<string, string>, limits?: Record<string, string>) => ({ resources: { requests, limits } });
const cgroupfs = { cgroupRoot: '', cgroupDriver: 'cgroupfs' as const };

test('the pod cgroup by QoS class: Guaranteed under kubepods, the others under their class; systemd slices by name', () => {
  const guaranteed = pod([{ name: 'a', ...res({ cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }) }]);
  const burstable = pod([{ name: 'a', ...res({ cpu: '100m' }) }]);
  const besteffort = pod([{ name: 'a' }]);
  assert.equal(podCgroupParent(guaranteed, cgroupfs), '/kubepods/podu-1');
  assert.equal(podCgroupParent(burstable, cgroupfs), '/kubepods/burstable/podu-1');
  assert.equal(podCgroupParent(besteffort, cgroupfs), '/kubepods/besteffort/podu-1');
  assert.equal(podCgroupParent(burstable, { cgroupRoot: '/orch/', cgroupDriver: 'cgroupfs' }), '/orch/kubepods/burstable/podu-1');
  assert.equal(podCgroupParent(burstable, { cgroupRoot: '', cgroupDriver: 'systemd' }), 'kubepods-burstable-podu_1.slice');
});

test('the pod\'s limits as ResourceConfigForPod: shares from the summed requests; quota and memory only when every container limits them', () => {
  assert.deepEqual(podCgroupResources(pod([{ name: 'a' }])), { cpuShares: 2 });
  assert.deepEqual(podCgroupResources(pod([{ name: 'a', ...res({ cpu: '250m', memory: '32Mi' }, { cpu: '500m', memory: '64Mi' }) }, { name: 'b', ...res(undefined, { cpu: '1', memory: '1Gi' }) }])),
    { cpuShares: milliCpuToShares(1250), cpuPeriod: 100_000, cpuQuota: 150_000, memoryLimitBytes: 64 * 2 ** 20 + 2 ** 30 });
  // one container without limits leaves the pod unlimited
  assert.deepEqual(podCgroupResources(pod([{ name: 'a', ...res(undefined, { cpu: '1', memory: '1Gi' }) }, { name: 'b', ...res({ cpu: '100m' }) }])), { cpuShares: milliCpuToShares(1100) });
  // an init container counts by its largest; a sidecar adds to everything after it
  const withInit = pod([{ name: 'a', ...res(undefined, { cpu: '1', memory: '100Mi' }) }], [
    { name: 'big', ...res(undefined, { cpu: '3', memory: '50Mi' }) },
    { name: 'side', restartPolicy: 'Always', ...res(undefined, { cpu: '500m', memory: '10Mi' }) },
  ]);
  assert.deepEqual(podCgroupResources(withInit), { cpuShares: milliCpuToShares(3000), cpuPeriod: 100_000, cpuQuota: 300_000, memoryLimitBytes: 110 * 2 ** 20 });
  assert.equal(milliCpuToShares(0), 2);
  assert.equal(milliCpuToShares(1), 2);
  assert.equal(milliCpuToQuota(5), 1000);
  assert.equal(sharesToWeight(2), 1);
  assert.equal(sharesToWeight(262_144), 10_000);
});

test('the pod cgroup is written in the v1 cpu and memory trees and removed from every tree', async t => {
  const root = await mkdtemp(join(tmpdir(), 'cgroup-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const fs = { root, v2: false };
  await ensurePodCgroup(fs, '/kubepods/burstable/podu-1', { cpuShares: 256, cpuPeriod: 100_000, cpuQuota: 50_000, memoryLimitBytes: 1024 });
  assert.equal(await readFile(join(root, 'cpu/kubepods/burstable/podu-1/cpu.shares'), 'utf8'), '256');
  assert.equal(await readFile(join(root, 'cpu/kubepods/burstable/podu-1/cpu.cfs_quota_us'), 'utf8'), '50000');
  assert.equal(await readFile(join(root, 'memory/kubepods/burstable/podu-1/memory.limit_in_bytes'), 'utf8'), '1024');
  await ensurePodCgroup(fs, '/kubepods/besteffort/podu-2', { cpuShares: 2 });
  assert.equal(await readFile(join(root, 'cpu/kubepods/besteffort/podu-2/cpu.cfs_quota_us'), 'utf8'), '-1');
  // a real cgroup directory holds only its control files, which rmdir takes with it; here they are plain files, so empty it first
  for (const f of ['cpu/kubepods/burstable/podu-1/cpu.shares', 'cpu/kubepods/burstable/podu-1/cpu.cfs_quota_us', 'cpu/kubepods/burstable/podu-1/cpu.cfs_period_us', 'memory/kubepods/burstable/podu-1/memory.limit_in_bytes']) await rm(join(root, f));
  await removePodCgroup(fs, '/kubepods/burstable/podu-1');
  assert.ok(!existsSync(join(root, 'cpu/kubepods/burstable/podu-1')) && !existsSync(join(root, 'memory/kubepods/burstable/podu-1')));
  assert.ok(existsSync(join(root, 'cpu/kubepods/burstable')), 'the QoS level stays for other pods');

  const v2 = { root: join(root, 'unified'), v2: true };
  await ensurePodCgroup(v2, '/kubepods/podu-3', { cpuShares: 1024, cpuPeriod: 100_000, cpuQuota: 100_000, memoryLimitBytes: 4096 });
  assert.deepEqual(await Promise.all(['cpu.weight', 'cpu.max', 'memory.max'].map(f => readFile(join(v2.root, 'kubepods/podu-3', f), 'utf8'))), [String(sharesToWeight(1024)), '100000 100000', '4096']);
});
