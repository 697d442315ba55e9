// Encryption at rest through `orch server --encryption-provider-config`, driven with kubectl:
// a Secret is not in plaintext on disk; it reads after a restart and after a key rotation (new
// key first, then `get -o json | replace` rewrites, then the old key is dropped); with a key the
// server does not have it is a corrupt object (get 500, list naming it) that the unsafe delete
// removes; the configuration reloads itself when the file changes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { requires } from '../support/requires.ts';
import { until } from './support/until.ts';
import { rawClient } from './support/raw-client.ts';

const versions = kubectls();
const secretText = 'TOPSECRET-orch-e2e-7f3a';
const key = (fill: number) => Buffer.alloc(32, fill).toString('base64');
const config = (providers: string) => `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
${providers}
`;
const aescbc = (...keys: Array<[string, number]>) => `      - aescbc:\n          keys:\n${keys.map(([n, f]) => `            - name: ${n}\n              secret: ${key(f)}\n`).join('')}`;

test('secrets encrypted at rest: on disk, restart, rotation, a lost key, reload', requires(versions.length === 0 && 'no kubectl binary found'), async t => {
  const bin = versions[0]!.path;
  let orch: OrchProcess | undefined;
  let dataDir: string | undefined;
  const file = () => join(dataDir!, 'encryption.yaml');
  const start = async () => {
    orch = await startOrch({ dataDir, args: ['--encryption-provider-config', file(), '--encryption-provider-config-automatic-reload', '--feature-gates=AllowUnsafeMalformedObjectDeletion=true'] });
    dataDir = orch.dataDir;
  };
  const k = (...args: string[]) => kubectl(bin, orch!.kubeconfig, args);
  const ok = async (...args: string[]) => { const r = await k(...args); assert.equal(r.code, 0, r.stderr); return r.stdout; };
  const onDisk = async () => (await readFile(join(dataDir!, 'orch.db'))).toString('latin1') + (await readFile(join(dataDir!, 'orch.db-wal')).then(b => b.toString('latin1'), () => ''));
  t.after(async () => { await orch?.stop(); await orch?.cleanup(); });

  // the first start makes the data dir; the configuration is written into it before the real start
  orch = await startOrch();
  dataDir = orch.dataDir;
  await orch.stop();
  await writeFile(file(), config(aescbc(['key1', 1]) + '      - identity: {}\n'));
  await start();
  await ok('create', 'secret', 'generic', 's1', `--from-literal=password=${secretText}`);
  await ok('create', 'configmap', 'c1', '--from-literal=plain=visible-value');
  await orch!.stop();
  const disk = await onDisk();
  assert.ok(!disk.includes(Buffer.from(secretText).toString('base64')) && !disk.includes(secretText), 'the secret is not on disk in plaintext');
  assert.ok(disk.includes('k8s:enc:aescbc:v1:key1:'), 'stored with Kubernetes\' prefix');
  assert.ok(disk.includes('visible-value'), 'a resource not named is stored as it is');

  // rotation: the new key first, everything rewritten, then the old key dropped
  await writeFile(file(), config(aescbc(['key2', 2], ['key1', 1])));
  await start();
  assert.equal(Buffer.from(await ok('get', 'secret', 's1', '-o', 'jsonpath={.data.password}'), 'base64').toString(), secretText);
  const all = await ok('get', 'secrets', '-A', '-o', 'json');
  const replaced = await kubectl(bin, orch!.kubeconfig, ['replace', '-f', '-'], all);
  assert.equal(replaced.code, 0, replaced.stderr);
  assert.match(replaced.stdout, /secret\/s1 replaced/);
  await orch!.stop();
  await writeFile(file(), config(aescbc(['key2', 2])));
  await start();
  assert.equal(Buffer.from(await ok('get', 'secret', 's1', '-o', 'jsonpath={.data.password}'), 'base64').toString(), secretText, 'rewritten under key2');

  // the file changes while the server runs: a new write key is used without a restart
  await writeFile(file(), config(aescbc(['key3', 3], ['key2', 2])));
  await until('the new configuration in use', async () => {
    await ok('create', 'secret', 'generic', `probe-${Date.now()}`, '--from-literal=x=y');
    await new Promise(r => setTimeout(r, 200));
    return (await onDisk()).includes('k8s:enc:aescbc:v1:key3:');
  }, 20_000, 300);
  await orch!.stop();

  // a key the server does not have: the object is corrupt, reported as Kubernetes reports it
  await writeFile(file(), config(aescbc(['other', 9])));
  await start();
  const get = await k('get', 'secret', 's1');
  assert.equal(get.code, 1);
  assert.match(get.stderr, /^Error from server \(InternalError\): Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/registry\/secrets\/default\/s1, ResourceVersion: 0, AdditionalErrorMsg: unable to transform key "\/registry\/secrets\/default\/s1": no matching prefix found\n$/);
  const list = await k('get', 'secrets');
  assert.equal(list.stderr, 'Error from server (StoreReadError): failed to read one or more secrets from the storage\n');
  // the Status names every corrupt key in its causes
  const raw = await rawClient(orch!.kubeconfig).request('GET', '/api/v1/namespaces/default/secrets');
  assert.equal(raw.status, 500);
  assert.deepEqual(raw.json().details.causes.map((c: any) => c.field).filter((f: string) => f.endsWith('/s1')), ['/registry/secrets/default/s1']);
  // only the unsafe delete removes it; then the namespace lists again
  const del = await k('delete', '--raw', '/api/v1/namespaces/default/secrets/s1?ignoreStoreReadErrorWithClusterBreakingPotential=true');
  assert.equal(del.code, 0, del.stderr);
  const after = (await rawClient(orch!.kubeconfig).request('GET', '/api/v1/namespaces/default/secrets')).json();
  const left = after.details.causes.map((c: any) => c.field);
  assert.ok(!left.includes('/registry/secrets/default/s1'), 'gone');
  assert.ok(left.length > 0 && left.every((f: string) => f.startsWith('/registry/secrets/default/probe-')), 'the probes written under key3 are corrupt for this server too');
});
