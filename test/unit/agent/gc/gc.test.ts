// Garbage collection on the node: images at the high/low thresholds (least recently used first,
// in-use, pinned and young images kept), dead containers beyond the newest per container,
// container logs rotated past their size with old files compressed and the excess removed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { bytesToFree, imageGc, imagesToFree } from '../../../../src/agent/gc/image-gc.ts';
import { deadContainerGarbage } from '../../../../src/agent/gc/container-gc.ts';
import { rotateIfNeeded, rotationSuffix } from '../../../../src/agent/logs/log-rotation.ts';
import { validateConfig } from '../../../../src/agent/config/validate.ts';
import { defaultAgentConfig as defaultConfig } from '../../../../src/agent/config/defaults.ts';
import { silentLogger } from '../../../../src/api/log.ts';
import type { RuntimePod } from '../../../../src/agent/pods/types.ts';
import { startSim } from '../../runtime-sim/sim-fixture.ts';

test('bytes to free: none below the high threshold, else down to the low one', () => {
  assert.equal(bytesToFree(1000, 200, 85, 80), 0, '80 % used');
  assert.equal(bytesToFree(1000, 150, 85, 80), 50, '85 % used: down to 80 %');
  assert.equal(bytesToFree(1000, 50, 85, 80), 150);
  assert.equal(bytesToFree(0, 0, 85, 80), 0);
});

test('images to free: least recently used first, skipping used, pinned and young images', () => {
  const img = (id: string, size: number, lastUsed: number, firstDetected = 0, pinned = false) => ({ id, size, lastUsed, firstDetected, pinned });
  const images = [img('a', 100, 50), img('b', 100, 10), img('used', 500, 0), img('pinned', 500, 0, 0, true), img('young', 500, 0, 990), img('c', 100, 30)];
  const r = imagesToFree(images, new Set(['used']), 150, 1000, 60);
  assert.deepEqual(r.remove.map(i => i.id), ['b', 'c']);
  assert.equal(r.eligible, 300);
  assert.deepEqual(imagesToFree(images, new Set(['used']), Infinity, 1000, 60).remove.map(i => i.id), ['b', 'c', 'a']);
});

test('image GC over a runtime: over the high threshold, unused images old enough go; the one a container uses stays', async t => {
  let now = 0;
  const fx = await startSim(t, { preloadedImages: ['busybox', 'nginx', 'redis'] });
  const sb = await fx.runPod('p');
  await fx.runContainer(sb, { command: ['sleep', '3600'] });
  const events: string[] = [];
  let available = 50;
  const gc = imageGc({ cri: fx.cri, disk: async () => ({ capacity: 1000, available, inodes: 1, inodesFree: 1 }), highThresholdPercent: 85, lowThresholdPercent: 80, minAgeMs: 120_000, now: () => now, log: silentLogger, nodeEvent: (r, m) => events.push(`${r}: ${m}`) });
  const names = async () => (await fx.cri.listImages({})).images.flatMap(i => i.repoTags).sort();
  const before = await names();
  assert.ok(before.includes('docker.io/library/nginx:latest') && before.includes('docker.io/library/redis:latest'), `${before}`);
  assert.equal(await gc.garbageCollect(), 0, 'images first seen now are too young');
  assert.match(events[0] ?? '', /^FreeDiskSpaceFailed: Failed to garbage collect required amount of images\. Attempted to free 150 bytes, but only found 0 bytes eligible to free\.$/);
  now = 200_000;
  available = 500;
  assert.equal(await gc.garbageCollect(), 0, 'under the high threshold nothing goes');
  assert.deepEqual(await names(), before);
  available = 50;
  const freed = await gc.garbageCollect();
  assert.ok(freed > 0);
  const left = await names();
  assert.ok(left.includes('docker.io/library/busybox:latest'), `the image in use stays: ${left}`);
  assert.ok(left.length < before.length, `${left}`);
  await gc.deleteUnused();
  // the sandbox image the runtime's status names stays too, as containerd's does
  assert.deepEqual(await names(), ['docker.io/library/busybox:latest', 'registry.k8s.io/pause:3.10']);
});

test('dead containers: the newest exited instance per container and the newest sandbox stay', () => {
  const c = (id: string, name: string, createdAt: number, state: 'CONTAINER_EXITED' | 'CONTAINER_RUNNING', sandboxId = 's2') => ({ id, name, createdAt, state, sandboxId, attempt: 0, image: '', imageRef: '' }) as RuntimePod['containers'][number];
  const pods: RuntimePod[] = [
    { uid: 'u1', name: 'a', namespace: 'd', sandboxes: [{ id: 's1', attempt: 0, state: 'SANDBOX_NOTREADY', createdAt: 1 }, { id: 's2', attempt: 1, state: 'SANDBOX_READY', createdAt: 2 }], containers: [c('x1', 'main', 1, 'CONTAINER_EXITED', 's1'), c('x2', 'main', 2, 'CONTAINER_EXITED'), c('x3', 'main', 3, 'CONTAINER_RUNNING'), c('y1', 'side', 1, 'CONTAINER_EXITED'), c('y2', 'side', 2, 'CONTAINER_EXITED')] },
    { uid: 'gone', name: 'b', namespace: 'd', sandboxes: [{ id: 's9', attempt: 0, state: 'SANDBOX_NOTREADY', createdAt: 1 }], containers: [c('z1', 'main', 1, 'CONTAINER_EXITED', 's9')] },
  ];
  const g = deadContainerGarbage(pods, uid => uid === 'u1');
  assert.deepEqual(g.containers.sort(), ['x1', 'y1']);
  assert.deepEqual(g.sandboxes, ['s1'], 'the old sandbox, its container going too');
});

test('log rotation: past its size the log is renamed and reopened; older files compressed, the excess removed', async t => {
  const fx = await startSim(t);
  const dir = join(fx.dir, 'logs');
  await mkdir(dir, { recursive: true });
  const log = join(dir, '0.log');
  let reopened = 0;
  const reopen = async () => { reopened++; await writeFile(log, ''); };
  await writeFile(log, 'x'.repeat(100));
  assert.equal(await rotateIfNeeded(log, 1000, 3, 0, reopen), false, 'under the size');
  const times = [Date.parse('2026-11-22T10:00:00Z'), Date.parse('2026-11-22T10:00:01Z'), Date.parse('2026-11-22T10:00:02Z')];
  for (const [i, at] of times.entries()) {
    await writeFile(log, `line ${i}\n`.repeat(200));
    assert.equal(await rotateIfNeeded(log, 1000, 3, at, reopen), true);
  }
  assert.equal(reopened, 3);
  assert.equal(rotationSuffix(times[2]!), '20261122-100002');
  // the current log plus two rotated: the newest plain, the one before compressed, the oldest gone
  assert.deepEqual((await readdir(dir)).sort(), ['0.log', '0.log.20261122-100001.gz', '0.log.20261122-100002']);
  assert.match(gunzipSync(await readFile(join(dir, '0.log.20261122-100001.gz'))).toString(), /^line 1\n/);
  assert.match(await readFile(join(dir, '0.log.20261122-100002'), 'utf8'), /^line 2\n/);
  // a runtime that cannot reopen keeps its log where it was
  await writeFile(log, 'y'.repeat(2000));
  await assert.rejects(rotateIfNeeded(log, 1000, 3, times[2]! + 5000, async () => { throw new Error('no'); }), /no/);
  assert.equal((await readFile(log, 'utf8')).length, 2000);
  // through the runtime: a running container's log reopened by ReopenContainerLog
  const sb = await fx.runPod('p');
  const id = await fx.runContainer(sb, { command: ['sleep', '3600'] });
  const status = (await fx.cri.containerStatus({ containerId: id })).status!;
  await mkdir(join(fx.dir, 'pods', 'p', 'c'), { recursive: true });
  await writeFile(status.logPath, 'z'.repeat(5000));
  assert.equal(await rotateIfNeeded(status.logPath, 1000, 5, times[0]!, () => fx.cri.reopenContainerLog({ containerId: id })), true);
});

test('configuration: image GC thresholds and containerLogMaxFiles checked in the kubelet\'s words', () => {
  const c = { ...defaultConfig(), imageGCHighThresholdPercent: 70, imageGCLowThresholdPercent: 80, containerLogMaxFiles: 1 };
  assert.deepEqual(validateConfig(c as never), [
    'imageGCLowThresholdPercent (--image-gc-low-threshold) 80 must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) 70',
    'containerLogMaxFiles (--container-log-max-files) 1 must be greater than 1',
  ]);
  assert.match(validateConfig({ ...defaultConfig(), imageGCHighThresholdPercent: 101 } as never)[0]!, /imageGCHighThresholdPercent \(--image-gc-high-threshold\) 101 must be between 0 and 100, inclusive/);
});
