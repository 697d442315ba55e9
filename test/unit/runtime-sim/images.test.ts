import { test } from 'node:test';
import assert from 'node:assert/strict';
import { criError, startSim } from './sim-fixture.ts';

test('pulls take the pull delay, normalise names and make images present', async t => {
  const { cri } = await startSim(t, { pullDelayMs: 150, preloadedImages: [] });
  assert.equal((await cri.imageStatus({ image: { image: 'nginx' } })).image, null);
  const before = Date.now();
  const { imageRef } = await cri.pullImage({ image: { image: 'nginx' } });
  assert.ok(Date.now() - before >= 140, 'the pull took its delay');
  assert.match(imageRef, /^sha256:[0-9a-f]{64}$/);
  const img = (await cri.imageStatus({ image: { image: 'docker.io/library/nginx:latest' } })).image;
  assert.equal(img!.id, imageRef);
  assert.deepEqual(img!.repoTags, ['docker.io/library/nginx:latest']);
  assert.match(img!.repoDigests[0], /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  assert.ok(img!.size > 0);
  // the same image by its id and by its digest
  assert.equal((await cri.imageStatus({ image: { image: imageRef } })).image!.id, imageRef);
  assert.equal((await cri.imageStatus({ image: { image: img!.repoDigests[0] } })).image!.id, imageRef);
  // a second tag of another repository is another image; pulling again changes nothing
  await cri.pullImage({ image: { image: 'quay.io/org/app:v2' } });
  assert.equal((await cri.pullImage({ image: { image: 'nginx:latest' } })).imageRef, imageRef);
  const all = (await cri.listImages({})).images;
  assert.deepEqual(all.map((i: any) => i.repoTags[0]).sort(), ['docker.io/library/nginx:latest', 'quay.io/org/app:v2']);
  assert.deepEqual((await cri.listImages({ filter: { image: { image: 'quay.io/org/app:v2' } } })).images.map((i: any) => i.repoTags[0]), ['quay.io/org/app:v2']);

  await cri.removeImage({ image: { image: 'nginx' } });
  await cri.removeImage({ image: { image: 'nginx' } });
  assert.equal((await cri.imageStatus({ image: { image: 'nginx' } })).image, null);
});

test('images a registry does not have fail to pull as containerd reports it', async t => {
  const { cri } = await startSim(t, { unpullableImages: ['ghost', 'example.com/team/missing:1.0'] });
  await assert.rejects(
    cri.pullImage({ image: { image: 'ghost' } }),
    criError('UNKNOWN', /^rpc error: code = Unknown desc = failed to pull and unpack image "docker\.io\/library\/ghost:latest": failed to resolve reference "docker\.io\/library\/ghost:latest": docker\.io\/library\/ghost:latest: not found$/),
  );
  await assert.rejects(cri.pullImage({ image: { image: 'example.com/team/missing:1.0' } }), criError('UNKNOWN', /example\.com\/team\/missing:1\.0: not found/));
  await assert.rejects(cri.pullImage({ image: { image: 'registry.invalid/none:1' } }), criError('UNKNOWN', /lookup registry\.invalid: no such host/));
  await assert.rejects(cri.pullImage({ image: { image: 'Not A Reference' } }), criError('UNKNOWN', /invalid reference format/));
  assert.equal((await cri.imageStatus({ image: { image: 'ghost' } })).image, null);
});

test('preloaded images are there; the sandbox image appears, pinned, with the first sandbox', async t => {
  const { cri, runPod } = await startSim(t, { preloadedImages: ['busybox:1.36', 'registry.k8s.io/e2e-test-images/agnhost:2.52'] });
  assert.deepEqual((await cri.listImages({})).images.map((i: any) => i.repoTags[0]), ['docker.io/library/busybox:1.36', 'registry.k8s.io/e2e-test-images/agnhost:2.52']);
  await runPod('p');
  const pause = (await cri.imageStatus({ image: { image: 'registry.k8s.io/pause:3.10' } })).image;
  assert.equal(pause!.pinned, true);
  const fs = await cri.imageFsInfo({});
  assert.equal(fs.imageFilesystems.length, 1);
  const images = (await cri.listImages({})).images;
  assert.equal(fs.imageFilesystems[0]!.usedBytes!.value, images.reduce((s: number, i: any) => s + i.size, 0));
  assert.ok(fs.imageFilesystems[0]!.fsId!.mountpoint);
});

test('a container needs its image present', async t => {
  const { cri, runPod, runContainer } = await startSim(t, { preloadedImages: [] });
  const pod = await runPod('p');
  await assert.rejects(runContainer(pod, { image: { image: 'busybox' } }), criError('NOT_FOUND', /failed to resolve image "busybox": not found/));
  await cri.pullImage({ image: { image: 'busybox' } });
  await runContainer(pod, { image: { image: 'busybox' } });
});
