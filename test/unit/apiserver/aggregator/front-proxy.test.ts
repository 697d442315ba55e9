import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureFrontProxyPki, extensionAuthData } from '../../../../src/apiserver/aggregator/front-proxy.ts';
import { createCa, issueCert } from '../../../../src/pki/certs.ts';
import { aggregatorOptions } from '../../../../src/cli/aggregator-flags.ts';

test('a front-proxy CA and client certificate beside the cluster CA, made once and then reused', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'aggregator-pki-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const first = await ensureFrontProxyPki(dir);
  const client = new X509Certificate(first.client.cert);
  assert.match(client.subject, /CN=front-proxy-client/);
  assert.ok(client.verify(new X509Certificate(first.caCert).publicKey));
  assert.equal(await readFile(join(dir, 'front-proxy-ca.crt'), 'utf8'), first.caCert);
  assert.equal(await readFile(join(dir, 'front-proxy-client.key'), 'utf8'), first.client.key);
  const again = await ensureFrontProxyPki(dir);
  assert.equal(again.client.cert, first.client.cert);
  assert.deepEqual(again.allowedNames, ['front-proxy-client']);
});

test('--proxy-client-* and --requestheader-* files replace the generated ones', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'aggregator-pki-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const ca = await createCa('my-front-proxy', 1);
  const mine = await issueCert(ca, { commonName: 'aggregator', days: 1, usage: 'client' });
  await writeFile(join(dir, 'c.crt'), mine.cert); await writeFile(join(dir, 'c.key'), mine.key); await writeFile(join(dir, 'ca.crt'), ca.cert);
  const { frontProxy } = aggregatorOptions({ 'proxy-client-cert-file': join(dir, 'c.crt'), 'proxy-client-key-file': join(dir, 'c.key'), 'requestheader-client-ca-file': join(dir, 'ca.crt'), 'requestheader-allowed-names': 'aggregator, front-proxy-client' });
  const pki = await ensureFrontProxyPki(dir, undefined, frontProxy);
  assert.equal(pki.client.cert, mine.cert);
  assert.equal(pki.caCert, ca.cert);
  const data = extensionAuthData('CLUSTER-CA', pki);
  assert.deepEqual(data, {
    'client-ca-file': 'CLUSTER-CA',
    'requestheader-allowed-names': '["aggregator","front-proxy-client"]',
    'requestheader-client-ca-file': ca.cert,
    'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    'requestheader-group-headers': '["X-Remote-Group"]',
    'requestheader-username-headers': '["X-Remote-User"]',
  });
  assert.throws(() => aggregatorOptions({ 'proxy-client-cert-file': 'x' }), /must be given together/);
});
