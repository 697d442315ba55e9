// Kernel features as the running system has them: the cgroup hierarchy mounted and its
// controllers decide, not the kernel version alone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kernelFeatures } from '../../../../src/agent/machine/kernel.ts';
import type { HostFiles } from '../../../../src/agent/machine/host-files.ts';

function fakeHost(files: Record<string, string>, dirs: Record<string, string[]> = {}): HostFiles {
  return { read: async p => files[p], list: async p => dirs[p] ?? [] };
}

const supported = (features: Awaited<ReturnType<typeof kernelFeatures>>, name: string) => features.find(f => f.feature === name)?.supported;

test('a cgroup v1 host on a new kernel has no cgroup v2 freezer (the version alone once said it had)', async () => {
  const v1 = fakeHost({
    'proc/cgroups': '#subsys_name\thierarchy\tnum_cgroups\tenabled\ncpuset\t3\t2\t1\ncpu\t1\t2\t1\nmemory\t4\t90\t1\npids\t8\t2\t1\nblkio\t7\t2\t1\nhugetlb\t5\t1\t0\nfreezer\t6\t2\t1\n',
    'proc/self/cgroup': '9:name=systemd:/\n8:pids:/\n0::/\n',
  });
  const f = await kernelFeatures('6.1.0-13-amd64', v1);
  assert.equal(supported(f, 'cgroup v2'), false);
  assert.equal(supported(f, 'cgroup v2 freezer'), false);
  assert.equal(supported(f, 'cgroup controller memory'), true);
  assert.equal(supported(f, 'cgroup controller io'), true, 'blkio is v1\'s io');
  assert.equal(supported(f, 'cgroup controller hugetlb'), false, 'listed but not enabled');
});

test('a cgroup v2 host: controllers from cgroup.controllers, the freezer where cgroups have cgroup.freeze', async () => {
  const files = {
    'sys/fs/cgroup/cgroup.controllers': 'cpuset cpu io memory pids\n',
    'proc/self/cgroup': '0::/system.slice/orch.service\n',
    'sys/fs/cgroup/system.slice/orch.service/cgroup.freeze': '0\n',
  };
  const f = await kernelFeatures('6.1.0', fakeHost(files));
  assert.deepEqual(['cgroup v2', 'cgroup v2 freezer', 'cgroup controller memory', 'cgroup controller hugetlb'].map(n => supported(f, n)), [true, true, true, false]);
  // an old kernel has no v2 freezer even where the hierarchy is unified
  assert.equal(supported(await kernelFeatures('5.1.0', fakeHost(files)), 'cgroup v2 freezer'), false);
  // in the root cgroup (a container), a child cgroup tells
  const rootOnly = fakeHost({ 'sys/fs/cgroup/cgroup.controllers': 'cpu memory\n', 'proc/self/cgroup': '0::/\n', 'sys/fs/cgroup/kubepods/cgroup.freeze': '0\n' }, { 'sys/fs/cgroup': ['cgroup.controllers', 'kubepods'] });
  assert.equal(supported(await kernelFeatures('6.1.0', rootOnly), 'cgroup v2 freezer'), true);
});
