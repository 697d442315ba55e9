// Kernel features as the running system has them: the cgroup hierarchy mounted and its
// controllers decide, not the kernel version alone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { release, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { kernelFeatures } from '../../../../src/agent/machine/kernel.ts';
import { hostFiles, type HostFiles } from '../../../../src/agent/machine/host-files.ts';

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

// a fake root directory: the files a host has, written under a temp dir and read through hostFiles()
async function fakeRoot(t: { after(fn: () => unknown): void }, files: Record<string, string>): Promise<HostFiles> {
  const root = await mkdtemp(join(tmpdir(), 'orch-kernel-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return hostFiles(root);
}

const mountLine = (id: number, point: string, fsType: string, superOpts: string) => `${id} 23 0:${id} / ${point} rw,relatime shared:${id} - ${fsType} ${fsType} ${superOpts}`;
const procCgroups = '#subsys_name\thierarchy\tnum_cgroups\tenabled\ncpuset\t3\t2\t1\ncpu\t1\t2\t1\ncpuacct\t1\t2\t1\nblkio\t7\t2\t1\nmemory\t4\t90\t1\npids\t8\t2\t1\nhugetlb\t5\t1\t1\nfreezer\t6\t2\t1\n';

test('fake root: a hybrid host (tmpfs at /sys/fs/cgroup, v1 hierarchies, cgroup2 at unified) is not cgroup v2 even with a cgroup.controllers file around', async t => {
  const files = await fakeRoot(t, {
    'proc/self/mountinfo': [
      mountLine(31, '/sys/fs/cgroup', 'tmpfs', 'rw,mode=755'),
      mountLine(32, '/sys/fs/cgroup/unified', 'cgroup2', 'rw,nsdelegate'),
      mountLine(33, '/sys/fs/cgroup/cpu,cpuacct', 'cgroup', 'rw,cpu,cpuacct'),
      mountLine(34, '/sys/fs/cgroup/memory', 'cgroup', 'rw,memory'),
      mountLine(35, '/sys/fs/cgroup/pids', 'cgroup', 'rw,pids'),
      mountLine(36, '/sys/fs/cgroup/blkio', 'cgroup', 'rw,blkio'),
    ].join('\n') + '\n',
    'proc/cgroups': procCgroups,
    // a stray file of that name under the tmpfs does not make the hierarchy unified
    'sys/fs/cgroup/cgroup.controllers': 'cpu memory\n',
    'proc/pressure/memory': 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n',
    'proc/sys/user/max_user_namespaces': '96365\n',
    'proc/sys/net/ipv4/tcp_keepalive_time': '7200\n',
  });
  const f = await kernelFeatures('6.18.44', files);
  assert.equal(supported(f, 'cgroup v2'), false);
  assert.equal(f.find(x => x.feature === 'cgroup v2')?.observed, 'tmpfs at /sys/fs/cgroup, cgroup hybrid');
  assert.equal(supported(f, 'cgroup v2 freezer'), false);
  assert.deepEqual(['cpu', 'memory', 'pids', 'io', 'cpuset', 'hugetlb'].map(c => supported(f, `cgroup controller ${c}`)), [true, true, true, true, false, false], 'enabled but not mounted: cpuset and hugetlb cannot be used');
  assert.equal(supported(f, 'pressure stall information'), true);
  assert.equal(supported(f, 'pod user namespaces'), true);
  assert.equal(supported(f, 'sysctl net.ipv4.tcp_keepalive_time'), true);
  assert.equal(supported(f, 'sysctl net.ipv4.vs.conn_reuse_mode'), false, 'ip_vs not loaded: its sysctl file is absent');
});

test('fake root: cgroup2 mounted at /sys/fs/cgroup is v2, whatever /proc/cgroups says; PSI off and user namespaces disabled are seen', async t => {
  const files = await fakeRoot(t, {
    'proc/self/mountinfo': mountLine(30, '/sys/fs/cgroup', 'cgroup2', 'rw,nsdelegate,memory_recursiveprot') + '\n',
    'proc/cgroups': procCgroups,
    'sys/fs/cgroup/cgroup.controllers': 'cpuset cpu io memory hugetlb pids\n',
    'proc/self/cgroup': '0::/system.slice/orch.service\n',
    'sys/fs/cgroup/system.slice/orch.service/cgroup.freeze': '0\n',
    'proc/sys/user/max_user_namespaces': '0\n',
  });
  const f = await kernelFeatures('6.6.0', files);
  assert.equal(supported(f, 'cgroup v2'), true);
  assert.equal(f.find(x => x.feature === 'cgroup v2')?.observed, 'cgroup2 at /sys/fs/cgroup, cgroup v2');
  assert.equal(supported(f, 'cgroup v2 freezer'), true);
  assert.equal(supported(f, 'cgroup controller io'), true);
  assert.equal(supported(f, 'pressure stall information'), false, 'no readable /proc/pressure/memory');
  assert.equal(supported(f, 'pod user namespaces'), false, 'max_user_namespaces 0');
  // no cgroup mounted at all
  const bare = await fakeRoot(t, { 'proc/self/mountinfo': mountLine(20, '/proc', 'proc', 'rw') + '\n', 'proc/cgroups': procCgroups });
  const none = await kernelFeatures('6.6.0', bare);
  assert.equal(supported(none, 'cgroup v2'), false);
  assert.equal(supported(none, 'cgroup controller memory'), false);
});

test('this machine: cgroup v2 is reported exactly when stat sees cgroup2fs at /sys/fs/cgroup', async t => {
  let fsType: string;
  try {
    fsType = execFileSync('stat', ['-f', '-c', '%T', '/sys/fs/cgroup'], { encoding: 'utf8' }).trim();
  } catch {
    return t.skip('no /sys/fs/cgroup here');
  }
  const f = await kernelFeatures(release(), hostFiles('/'));
  assert.equal(supported(f, 'cgroup v2'), fsType === 'cgroup2fs', `stat says ${fsType}`);
});
