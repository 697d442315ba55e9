// Encryption at rest: the configuration checked in kube-apiserver's words, each provider's stored
// layout, reads by prefix with identity as the fallback, staleness after a rotation, and the
// encrypting storage over SQLite (nothing in plaintext, an unreadable value marked, not thrown).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEncryptionConfig, ruleFor } from '../../../../src/storage/encryption/config.ts';
import { buildTransformers } from '../../../../src/storage/encryption/transformers.ts';
import { encryptingStorage, resourceOfKey } from '../../../../src/storage/encryption/encrypting-storage.ts';
import { openSqliteStorage } from '../../../../src/storage/sqlite/store.ts';
import { unreadableReason } from '../../../../src/storage/unreadable-value.ts';

const key32 = Buffer.alloc(32, 7).toString('base64');
const key16 = Buffer.alloc(16, 9).toString('base64');
const config = (providers: string) => `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets, '*.apps']
    providers:
${providers}
`;
const enc = new TextEncoder();
const dec = new TextDecoder();
/** a read as text, so Buffers and Uint8Arrays compare alike */
const asText = async (r: Promise<{ data: Uint8Array; stale: boolean }>) => { const { data, stale } = await r; return { data: dec.decode(data), stale }; };

test('the configuration is checked as kube-apiserver checks it', () => {
  const bad = (providers: string) => { try { parseEncryptionConfig(config(providers), 'enc.yaml'); } catch (err) { return (err as Error).message; } assert.fail('accepted'); };
  assert.equal(bad(`      - aescbc:\n          keys: [{ name: k1, secret: ${Buffer.alloc(8).toString('base64')} }]`),
    'error while parsing file enc.yaml: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]');
  assert.match(bad(`      - secretbox:\n          keys: [{ name: k1, secret: ${key16} }]`), /secret is not of the expected length, got 16, expected one of \[32\]/);
  assert.match(bad(`      - aesgcm:\n          keys: [{ name: k1, secret: '***' }]`), /secrets must be base64 encoded/);
  assert.match(bad(`      - identity: {}\n        aescbc: { keys: [{ name: k1, secret: ${key32} }] }`), /more than one provider specified in a single element, should split into different list elements/);
  assert.match(bad(`      - kms: { apiVersion: v2, name: a, endpoint: 'tcp://x' }`), /unsupported scheme "tcp" for KMS provider, only unix is supported/);
  assert.match(bad(`      - aescbc:\n          keys: [{ name: k1, secret: ${key32} }, { name: k1, secret: ${key32} }]`), /keys\[1\]\.name: Duplicate value: "k1"/);
  const ok = parseEncryptionConfig(config('      - identity: {}'));
  assert.equal(ruleFor(ok, '', 'secrets'), ok.rules[0]);
  assert.equal(ruleFor(ok, 'apps', 'deployments'), ok.rules[0]);
  assert.equal(ruleFor(ok, '', 'configmaps'), undefined);
});

test('keys name their group and resource', () => {
  assert.deepEqual(resourceOfKey('/registry/secrets/default/s'), { group: '', resource: 'secrets' });
  assert.deepEqual(resourceOfKey('/registry/deployments.apps/ns/d'), { group: 'apps', resource: 'deployments' });
  assert.deepEqual(resourceOfKey('/registry/customresourcedefinitions.apiextensions.k8s.io/x'), { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' });
  assert.equal(resourceOfKey('/other/x'), undefined);
});

for (const [kind, secret] of [['aescbc', key32], ['aesgcm', key16], ['secretbox', key32]] as const) {
  test(`${kind}: values carry Kubernetes' prefix, round-trip, and are not the plaintext`, async () => {
    const t = buildTransformers(parseEncryptionConfig(config(`      - ${kind}:\n          keys: [{ name: key1, secret: ${secret} }]`))).forResource('', 'secrets')!;
    const plain = enc.encode('{"metadata":{"name":"s"},"data":{"password":"c2VjcmV0"}}');
    const sealed = await t.toStorage(plain, '/registry/secrets/default/s');
    assert.ok(dec.decode(sealed).startsWith(`k8s:enc:${kind}:v1:key1:`));
    assert.ok(!dec.decode(sealed).includes('c2VjcmV0'));
    assert.deepEqual(await asText(t.fromStorage(sealed, '/registry/secrets/default/s')), { data: dec.decode(plain), stale: false });
    if (kind === 'aesgcm') {
      // the storage key is authenticated: the value moved to another key does not open
      await assert.rejects(t.fromStorage(sealed, '/registry/secrets/default/other'), /message authentication failed/);
    }
  });
}

test('reads pick the provider by prefix; identity reads plain values; others are stale', async () => {
  const rotated = buildTransformers(parseEncryptionConfig(config(`      - aescbc:\n          keys: [{ name: new, secret: ${key32} }, { name: old, secret: ${Buffer.alloc(32, 1).toString('base64')} }]\n      - identity: {}`))).forResource('', 'secrets')!;
  const before = buildTransformers(parseEncryptionConfig(config(`      - aescbc:\n          keys: [{ name: old, secret: ${Buffer.alloc(32, 1).toString('base64')} }]`))).forResource('', 'secrets')!;
  const plain = enc.encode('{"a":1}');
  const oldValue = await before.toStorage(plain, '/registry/secrets/a/b');
  assert.deepEqual(await asText(rotated.fromStorage(oldValue, '/registry/secrets/a/b')), { data: '{"a":1}', stale: true });
  assert.deepEqual(await asText(rotated.fromStorage(await rotated.toStorage(plain, 'k'), 'k')), { data: '{"a":1}', stale: false });
  assert.deepEqual(await asText(rotated.fromStorage(plain, 'k')), { data: '{"a":1}', stale: true });
  // without identity, a plain value has no reader; with it first, encrypted data is refused to it
  await assert.rejects(before.fromStorage(plain, 'k'), /^Error: no matching prefix found$/);
  const identityOnly = buildTransformers(parseEncryptionConfig(config('      - identity: {}'))).forResource('', 'secrets')!;
  await assert.rejects(identityOnly.fromStorage(oldValue, 'k'), /^Error: identity transformer tried to read encrypted data$/);
});

test('the encrypting storage over SQLite: ciphertext on disk, plaintext to callers, unreadable values marked', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-enc-'));
  try {
    const path = join(dir, 'orch.db');
    const secretText = 'do-not-leak-this-password';
    const first = buildTransformers(parseEncryptionConfig(config(`      - aesgcm:\n          keys: [{ name: k1, secret: ${key32} }]\n      - identity: {}`)));
    const s = encryptingStorage(await openSqliteStorage({ path, synchronous: 'normal' }), first);
    const value = enc.encode(JSON.stringify({ metadata: { name: 's' }, stringData: { p: secretText } }));
    const kv = await s.create('/registry/secrets/default/s', value);
    await s.create('/registry/configmaps/default/c', enc.encode('{"metadata":{"name":"c"},"data":{"x":"visible"}}'));
    assert.equal(dec.decode(kv.value), dec.decode(value));
    assert.equal(dec.decode((await s.get('/registry/secrets/default/s')).kv!.value), dec.decode(value));
    const seen: string[] = [];
    const w = s.watch('/registry/secrets/', { afterRevision: 0, onEvents: es => { for (const e of es) seen.push(dec.decode(e.kv.value)); }, onError: () => {} });
    await new Promise(r => setTimeout(r, 50));
    w.cancel();
    assert.deepEqual(seen, [dec.decode(value)]);
    assert.equal(await s.isStale('/registry/secrets/default/s'), false);
    await s.close();
    const disk = await readFile(path).then(b => b.toString('latin1')) + await readFile(`${path}-wal`).then(b => b.toString('latin1'), () => '');
    assert.ok(!disk.includes(secretText), 'the secret is not in the file');
    assert.ok(disk.includes('k8s:enc:aesgcm:v1:k1:'));
    assert.ok(disk.includes('visible'), 'resources not named stay as they are');

    // a server with another key: the value is marked unreadable with the reason, nothing throws
    const other = buildTransformers(parseEncryptionConfig(config(`      - aesgcm:\n          keys: [{ name: k2, secret: ${key16} }]`)));
    const s2 = encryptingStorage(await openSqliteStorage({ path, synchronous: 'normal' }), other);
    try {
      const { kvs } = await s2.range('/registry/', '/registry0');
      const reasons = kvs.map(k => unreadableReason(k.value));
      assert.deepEqual(reasons, [undefined, 'unable to transform key "/registry/secrets/default/s": no matching prefix found']);
    } finally {
      await s2.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
