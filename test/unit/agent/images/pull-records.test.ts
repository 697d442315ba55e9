import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intentJson, parsePulledRecord, pulledRecordJson, pullRecordStore, recordFileName } from '../../../../src/agent/images/pull-records.ts';

// the kubelet's own test data: a pulled record and the names of intent files
const kubeletPulled = '{"kind":"ImagePulledRecord","apiVersion":"kubelet.config.k8s.io/v1alpha1","lastUpdatedTime":"2024-10-21T12:26:40Z","imageRef":"testimageref","credentialMapping":{"docker.io/testing/test":{"kubernetesSecrets":[{"uid":"testsecretuid","namespace":"default","name":"pull-secret","credentialHash":"testsecrethash"}]}}}';

test('file names are sha256- and the hex SHA-256 of the image, as the kubelet names them', () => {
  assert.equal(recordFileName('repo.repo/test/test:v1'), 'sha256-ee81caca15454863449fb55a1d942904d56d5ed9f9b20a7cb3453944ea2c7e11');
  assert.equal(recordFileName('repo.repo/test/test:latest'), 'sha256-7d8c031e2f1aeaa71649ca3e0b64c9902370ed460ef57fb07582a87a5a1e1c02');
});

test('records are written as the kubelet\'s v1alpha1 serializer writes them', () => {
  assert.equal(intentJson('repo.repo/test/test:v1'), '{"kind":"ImagePullIntent","apiVersion":"kubelet.config.k8s.io/v1alpha1","image":"repo.repo/test/test:v1"}\n');
  const record = parsePulledRecord(kubeletPulled);
  assert.equal(pulledRecordJson(record), `${kubeletPulled}\n`);
  assert.equal(pulledRecordJson({ lastUpdatedTime: '2026-01-02T03:04:05Z', imageRef: 'sha256:ab', credentialMapping: { 'docker.io/library/busybox': { nodePodsAccessible: true } } }),
    '{"kind":"ImagePulledRecord","apiVersion":"kubelet.config.k8s.io/v1alpha1","lastUpdatedTime":"2026-01-02T03:04:05Z","imageRef":"sha256:ab","credentialMapping":{"docker.io/library/busybox":{"nodePodsAccessible":true}}}\n');
  // no credentials known: the mapping is left out
  assert.equal(pulledRecordJson({ lastUpdatedTime: '2026-01-02T03:04:05Z', imageRef: 'sha256:ab', credentialMapping: {} }),
    '{"kind":"ImagePulledRecord","apiVersion":"kubelet.config.k8s.io/v1alpha1","lastUpdatedTime":"2026-01-02T03:04:05Z","imageRef":"sha256:ab"}\n');
  assert.throws(() => parsePulledRecord('{"kind":"ImagePullIntent","apiVersion":"kubelet.config.k8s.io/v1alpha1","image":"x"}'), /no kind "ImagePullIntent" is registered/);
});

test('the store: pulling/ and pulled/ owner-only, intents and records written, found, listed and removed', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agent-records-pulls-'));
  try {
    const store = await pullRecordStore(dir);
    for (const sub of ['pulling', 'pulled']) assert.equal((await stat(join(dir, 'image_manager', sub))).mode & 0o777, 0o700, sub);
    await store.writeIntent('busybox:1.36');
    const intentFile = join(dir, 'image_manager', 'pulling', recordFileName('busybox:1.36'));
    assert.equal(await readFile(intentFile, 'utf8'), intentJson('busybox:1.36'));
    assert.equal((await stat(intentFile)).mode & 0o777, 0o600);
    assert.equal(await store.intentExists('busybox:1.36'), true);
    assert.equal(await store.intentExists('busybox:1.37'), false);
    // a half-written file of the kubelet's is no record
    await writeFile(join(dir, 'image_manager', 'pulling', `${recordFileName('x')}.tmp`), 'partial');
    assert.deepEqual(await store.listIntents(), ['busybox:1.36']);
    await store.deleteIntent('busybox:1.36');
    await store.deleteIntent('busybox:1.36');
    assert.deepEqual(await store.listIntents(), []);

    // a record the kubelet wrote is read as it is
    await writeFile(join(dir, 'image_manager', 'pulled', recordFileName('testimageref')), kubeletPulled);
    assert.deepEqual((await store.getPulled('testimageref'))?.credentialMapping['docker.io/testing/test']?.kubernetesSecrets?.[0]?.name, 'pull-secret');
    await store.writePulled({ lastUpdatedTime: '2026-01-02T03:04:05Z', imageRef: 'sha256:cd', credentialMapping: {} });
    assert.deepEqual((await store.listPulled()).map(r => r.imageRef).sort(), ['sha256:cd', 'testimageref']);
    assert.equal(await store.getPulled('sha256:ef'), undefined);
    await store.deletePulled('sha256:cd');
    assert.deepEqual((await readdir(join(dir, 'image_manager', 'pulled'))).length, 1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
