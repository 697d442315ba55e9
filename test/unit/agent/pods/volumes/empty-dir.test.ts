// emptyDir volumes: a 0777 directory on disk; for medium Memory a tmpfs sized as the kubelet
// sizes it (node allocatable, narrowed by the pod's memory limit, narrowed by sizeLimit), with
// noswap where the kernel has it; unmounted when the pod finishes, and removed with the pod.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareVolumes, removePodDir, unmountPodVolumes } from '../../../../../src/agent/pods/volumes.ts';
import { memoryVolumeBytes, podMemoryLimit, tmpfsOptions } from '../../../../../src/agent/pods/volumes/empty-dir.ts';
import { mountAt } from '../../../../../src/agent/pods/volumes/host-mounts.ts';
import { asRoot, objectSource, pod, withRoot } from './support.ts';

const Mi = 1024 * 1024;
const limited = (...mem: Array<string | undefined>) => mem.map((m, i) => ({ name: `c${i}`, image: 'i', ...(m ? { resources: { limits: { memory: m } } } : {}) }));

test('a disk emptyDir is a directory every user can write, under the pod\'s volumes', async () => withRoot(async root => {
  const v = (await prepareVolumes(pod([{ name: 'scratch', emptyDir: {} }]), root, objectSource())).get('scratch')!;
  assert.deepEqual(v, { hostPath: join(root, 'pods/u-2/volumes/kubernetes.io~empty-dir/scratch'), readOnly: false });
  assert.equal((await stat(v.hostPath)).mode & 0o777, 0o777);
  await writeFile(join(v.hostPath, 'kept'), 'x');
  await prepareVolumes(pod([{ name: 'scratch', emptyDir: {} }]), root, objectSource());
  assert.equal(await readFile(join(v.hostPath, 'kept'), 'utf8'), 'x', 'a later sync keeps what the pod wrote');
}));

test('the pod\'s memory limit: every container limited, sidecars added, the largest init container counted when larger', () => {
  assert.equal(podMemoryLimit(pod([], { containers: limited('64Mi', '32Mi') })), 96 * Mi);
  assert.equal(podMemoryLimit(pod([], { containers: limited('64Mi', undefined) })), undefined, 'one unlimited container: no pod limit');
  assert.equal(podMemoryLimit(pod([], { containers: limited('64Mi'), initContainers: [{ name: 'i', image: 'i', resources: { limits: { memory: '256Mi' } } }] })), 256 * Mi);
  assert.equal(podMemoryLimit(pod([], { containers: limited('64Mi'), initContainers: [{ name: 's', image: 'i', restartPolicy: 'Always', resources: { limits: { memory: '16Mi' } } }] })), 80 * Mi);
  assert.equal(podMemoryLimit(pod([], { containers: limited('64Mi'), initContainers: [{ name: 'i', image: 'i' }] })), undefined);
});

test('a memory-backed emptyDir\'s size: allocatable, else the pod limit when smaller, else sizeLimit when smaller still', () => {
  const unlimited = pod([], { containers: limited(undefined) });
  const podLimited = pod([], { containers: limited('64Mi') });
  assert.equal(memoryVolumeBytes(unlimited, { medium: 'Memory' }, 2048 * Mi), 2048 * Mi);
  assert.equal(memoryVolumeBytes(unlimited, { medium: 'Memory' }, undefined), undefined, 'nothing known: the kernel\'s default');
  assert.equal(memoryVolumeBytes(podLimited, { medium: 'Memory' }, 2048 * Mi), 64 * Mi);
  assert.equal(memoryVolumeBytes(podLimited, { medium: 'Memory', sizeLimit: '16Mi' }, 2048 * Mi), 16 * Mi);
  assert.equal(memoryVolumeBytes(podLimited, { medium: 'Memory', sizeLimit: '1Gi' }, 2048 * Mi), 64 * Mi, 'a sizeLimit above the pod\'s limit does not widen it');
  assert.equal(memoryVolumeBytes(unlimited, { medium: 'Memory', sizeLimit: '4Gi' }, 2048 * Mi), 2048 * Mi);
  assert.deepEqual(tmpfsOptions(16 * Mi, '6.3.0'), [`size=${16 * Mi}`, 'noswap']);
  assert.deepEqual(tmpfsOptions(16 * Mi, '6.2.16-generic'), [`size=${16 * Mi}`]);
  assert.deepEqual(tmpfsOptions(undefined, '5.10.0'), []);
});

test('medium Memory: a tmpfs of the computed size, mounted once, unmounted when the pod finishes and gone with the pod', asRoot, async () => withRoot(async root => {
  const p = pod([{ name: 'ram', emptyDir: { medium: 'Memory' } }], { containers: limited('24Mi') });
  const path = (await prepareVolumes(p, root, objectSource(), { podIPs: [], hostIPs: [], nodeAllocatable: { memory: '1Gi' } })).get('ram')!.hostPath;
  try {
    const m = await mountAt(path);
    assert.equal(m?.fsType, 'tmpfs');
    assert.match(m!.options, /size=24576k/);
    assert.equal((await stat(path)).mode & 0o777, 0o777);
    await writeFile(join(path, 'f'), 'in memory');
    await prepareVolumes(p, root, objectSource());
    assert.equal((await readFile('/proc/self/mountinfo', 'utf8')).split('\n').filter(l => l.split(' ')[4] === path).length, 1, 'mounted once across syncs');
    assert.equal(await readFile(join(path, 'f'), 'utf8'), 'in memory');
    await unmountPodVolumes(root, 'u-2');
    assert.equal(await mountAt(path), undefined);
    await removePodDir(root, 'u-2');
    await assert.rejects(stat(join(root, 'pods/u-2')), { code: 'ENOENT' });
  } finally {
    await unmountPodVolumes(root, 'u-2').catch(() => undefined);
  }
}));

test('Secret, downward API and projected volumes are on a tmpfs of their own, ConfigMaps on disk, as the kubelet wraps them', asRoot, async () => withRoot(async root => {
  const p = pod([
    { name: 's', secret: { secretName: 'sec' } },
    { name: 'd', downwardAPI: { items: [{ path: 'name', fieldRef: { fieldPath: 'metadata.name' } }] } },
    { name: 'p', projected: { sources: [{ secret: { name: 'sec' } }] } },
    { name: 'c', configMap: { name: 'cfg' } },
  ], { containers: limited('32Mi') });
  const vols = await prepareVolumes(p, root, objectSource());
  for (const name of ['s', 'd', 'p']) {
    const m = await mountAt(vols.get(name)!.hostPath);
    assert.equal(m?.fsType, 'tmpfs', name);
    assert.match(m!.options, /size=32768k/, 'sized like any memory-backed emptyDir of the pod');
    assert.equal((await stat(vols.get(name)!.hostPath)).mode & 0o7777, 0o1777, 'the tmpfs keeps its sticky bit, as under the kubelet');
  }
  assert.equal(await readFile(join(vols.get('s')!.hostPath, 'token'), 'utf8'), 's3cret');
  assert.equal(await mountAt(vols.get('c')!.hostPath), undefined);
  await prepareVolumes(p, root, objectSource());
  assert.equal((await readFile('/proc/self/mountinfo', 'utf8')).split('\n').filter(l => l.includes(vols.get('s')!.hostPath)).length, 1, 'mounted once');
}));
