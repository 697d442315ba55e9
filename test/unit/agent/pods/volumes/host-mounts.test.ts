// The host's mount table as volumes read it (escaped paths, shared mounts), volumes mounted with
// propagation made shared mounts of their own, everything under a pod's directory unmounted with
// it, and a pod's volume usage as bytes, inodes and the filesystem's room.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { link, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { podVolumeUsage, prepareVolumes, removeOrphanedPodDirs, removePodDir } from '../../../../../src/agent/pods/volumes.ts';
import { mountAt, parseMountInfo, runMount } from '../../../../../src/agent/pods/volumes/host-mounts.ts';
import { treeUsage } from '../../../../../src/agent/pods/volumes/usage.ts';
import { asRoot, objectSource, pod, withRoot } from './support.ts';

test('mountinfo lines: octal-escaped targets, the filesystem type, shared peers', () => {
  const table = parseMountInfo([
    '27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard',
    '90 27 0:50 / /var/lib/orch/pods/u/volumes/kubernetes.io~empty-dir/my\\040dir rw,relatime - tmpfs tmpfs rw,size=16384k',
    'garbage',
  ].join('\n'));
  assert.deepEqual(table, [
    { target: '/', fsType: 'ext4', options: 'rw,relatime,rw,discard', shared: true },
    { target: '/var/lib/orch/pods/u/volumes/kubernetes.io~empty-dir/my dir', fsType: 'tmpfs', options: 'rw,relatime,rw,size=16384k', shared: false },
  ]);
});

test('a volume mounted with propagation becomes a shared mount; the pod\'s removal unmounts it and what was mounted inside', asRoot, async () => withRoot(async root => {
  const p = pod([{ name: 'shared', emptyDir: {} }, { name: 'plain', emptyDir: {} }], { containers: [{ name: 'main', image: 'i', volumeMounts: [{ name: 'shared', mountPath: '/s', mountPropagation: 'Bidirectional' }, { name: 'plain', mountPath: '/p' }] }] });
  const vols = await prepareVolumes(p, root, objectSource());
  const shared = vols.get('shared')!.hostPath;
  try {
    assert.equal((await mountAt(shared))?.shared, true);
    assert.equal(await mountAt(vols.get('plain')!.hostPath), undefined, 'a volume without propagation is left a plain directory');
    await prepareVolumes(p, root, objectSource());
    // what a container would mount inside with Bidirectional propagation
    await mkdir(join(shared, 'inner'));
    await runMount('mount', ['-t', 'tmpfs', 'tmpfs', join(shared, 'inner')]);
    await removePodDir(root, 'u-2');
    await assert.rejects(stat(join(root, 'pods/u-2')), { code: 'ENOENT' });
    assert.equal(await mountAt(shared), undefined);
  } finally {
    await removePodDir(root, 'u-2').catch(() => undefined);
  }
}));

test('volume usage: allocated bytes and inodes of each volume, hard links once, the filesystem\'s capacity; hostPath not counted', async () => withRoot(async root => {
  const p = pod([{ name: 'scratch', emptyDir: {} }, { name: 'conf', configMap: { name: 'cfg' } }, { name: 'host', hostPath: { path: root } }]);
  const vols = await prepareVolumes(p, root, objectSource());
  const scratch = vols.get('scratch')!.hostPath;
  await writeFile(join(scratch, 'big'), Buffer.alloc(64 * 1024, 1));
  await link(join(scratch, 'big'), join(scratch, 'same'));
  const before = await treeUsage(scratch);
  assert.equal(before.inodes, 2);
  assert.ok(before.bytes >= 64 * 1024, `${before.bytes}`);
  const usage = await podVolumeUsage(root, p);
  assert.deepEqual(usage.map(u => [u.name, u.memoryBacked]), [['scratch', false], ['conf', false]]);
  const s = usage[0]!;
  assert.equal(s.usedBytes, before.bytes);
  assert.ok(s.capacityBytes > 0 && s.availableBytes > 0 && s.availableBytes <= s.capacityBytes);
  assert.ok(s.inodes > 0 && s.inodesFree <= s.inodes);
  // the ConfigMap volume: its version directory, the files, the ..data link and the visible links
  assert.equal(usage[1]!.inodesUsed, 1 + 1 + 3 + 1 + 3);
}));

test('a memory-backed emptyDir\'s usage is its own tmpfs: capacity is its size', asRoot, async () => withRoot(async root => {
  const p = pod([{ name: 'ram', emptyDir: { medium: 'Memory', sizeLimit: '8Mi' } }]);
  const path = (await prepareVolumes(p, root, objectSource())).get('ram')!.hostPath;
  try {
    await writeFile(join(path, 'f'), Buffer.alloc(1024 * 1024, 1));
    const [u] = await podVolumeUsage(root, p);
    assert.equal(u!.memoryBacked, true);
    assert.equal(u!.capacityBytes, 8 * 1024 * 1024);
    assert.ok(u!.usedBytes >= 1024 * 1024);
  } finally {
    await removePodDir(root, 'u-2');
  }
}));

test('orphaned pod directories: those nothing knows are removed, mounts first; known ones stay', asRoot, async () => withRoot(async root => {
  const gone = pod([{ name: 'ram', emptyDir: { medium: 'Memory', sizeLimit: '1Mi' } }]);
  await prepareVolumes(gone, root, objectSource());
  await mkdir(join(root, 'pods/known-uid/volumes'), { recursive: true });
  const warned: string[] = [];
  assert.deepEqual(await removeOrphanedPodDirs(root, uid => uid === 'known-uid', uid => warned.push(uid)), ['u-2']);
  await assert.rejects(stat(join(root, 'pods/u-2')), { code: 'ENOENT' });
  assert.ok((await stat(join(root, 'pods/known-uid'))).isDirectory());
  assert.deepEqual(warned, []);
  assert.deepEqual(await removeOrphanedPodDirs(join(root, 'nothing-here'), () => false, () => undefined), []);
}));
