// KMS v2 against a plugin written for the tests (test/support/kms-plugin.ts): one Encrypt per seed,
// values in Kubernetes' form, a Decrypt only for a seed not seen, staleness after the plugin's
// key ID moves, and the health check failing with the plugin's own healthz text.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEncryptedObject, dekSourceType } from '../../../../src/storage/encryption/kms-v2-messages.ts';
import { parseEncryptionConfig } from '../../../../src/storage/encryption/config.ts';
import { buildTransformers } from '../../../../src/storage/encryption/transformers.ts';
import { startKmsPlugin } from '../../../support/kms-plugin.ts';

test('KMS v2: envelope values in Kubernetes\' form, one Encrypt per seed, stale after the key ID moves', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-kms-'));
  const socket = join(dir, 'kms.sock');
  const plugin = await startKmsPlugin(socket);
  const yaml = `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n      - kms: { apiVersion: v2, name: testkms, endpoint: 'unix://${socket}', timeout: 3s }\n`;
  const built = buildTransformers(parseEncryptionConfig(yaml));
  try {
    const t = built.forResource('', 'secrets')!;
    const key = '/registry/secrets/default/s';
    const plain = Buffer.from('{"metadata":{"name":"s"}}');
    const a = await t.toStorage(plain, key);
    const b = await t.toStorage(plain, key);
    assert.equal(plugin.state.encrypts, 1, 'one seed for many writes');
    const prefix = 'k8s:enc:kms:v2:testkms:';
    assert.equal(Buffer.from(a.subarray(0, prefix.length)).toString(), prefix);
    const obj = decodeEncryptedObject(a.subarray(prefix.length));
    assert.equal(obj.keyID, 'kek-1');
    assert.equal(obj.encryptedDEKSourceType, dekSourceType.hkdfSha256XNonceAesGcmSeed);
    assert.deepEqual(Object.keys(obj.annotations), ['kms.example.com/version']);
    assert.notDeepEqual(a, b, 'each write has its own data key and nonce');
    assert.equal(Buffer.from((await t.fromStorage(a, key)).data).toString(), plain.toString());
    assert.equal(plugin.state.decrypts, 0, 'a seed this server made needs no Decrypt');

    // another server (a fresh provider) asks the plugin once per seed
    const again = buildTransformers(parseEncryptionConfig(yaml));
    try {
      const t2 = again.forResource('', 'secrets')!;
      await t2.fromStorage(a, key);
      await t2.fromStorage(b, key);
      assert.equal(plugin.state.decrypts, 1);
    } finally {
      again.close();
    }

    // the plugin rotates its KEK: old values read as stale, new writes use a new seed
    plugin.keks.set('kek-2', randomBytes(32));
    plugin.state.keyId = 'kek-2';
    await built.kmsHealth();
    assert.equal((await t.fromStorage(a, key)).stale, true);
    const c = await t.toStorage(plain, key);
    assert.equal(decodeEncryptedObject(c.subarray(prefix.length)).keyID, 'kek-2');
    assert.equal((await t.fromStorage(c, key)).stale, false);

    plugin.state.healthz = 'the HSM is unreachable';
    await assert.rejects(built.kmsHealth(), /^Error: KMS provider testkms is not healthy: the HSM is unreachable$/);
  } finally {
    built.close();
    plugin.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
