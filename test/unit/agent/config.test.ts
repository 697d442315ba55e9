import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAgentConfig } from '../../../src/agent/config/load.ts';
import { mergeConfig } from '../../../src/agent/config/merge.ts';

const head = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

async function dir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'orch-agent-config-'));
  t.after(() => rm(d, { recursive: true, force: true }));
  return d;
}

test('rule 1: scalars and struct fields are overridden one by one, untouched ones stay', async t => {
  const d = await dir(t);
  await writeFile(join(d, 'main.yaml'), head + 'port: 20250\nserializeImagePulls: false\naddress: 192.168.0.1\nauthorization:\n  mode: Webhook\n  webhook:\n    cacheAuthorizedTTL: 5m\n    cacheUnauthorizedTTL: 30s\n');
  await mkdir(join(d, 'conf.d'));
  await writeFile(join(d, 'conf.d', '10-auth.conf'), head + 'address: 127.0.0.1\nauthorization:\n  mode: AlwaysAllow\n  webhook:\n    cacheAuthorizedTTL: 8m\n    cacheUnauthorizedTTL: 45s\n');
  const c = await loadAgentConfig({ configFile: join(d, 'main.yaml'), configDir: join(d, 'conf.d') });
  assert.equal(c.port, 20250);
  assert.equal(c.serializeImagePulls, false);
  assert.equal(c.address, '127.0.0.1');
  assert.deepEqual(c.authorization, { mode: 'AlwaysAllow', webhook: { cacheAuthorizedTTL: '8m', cacheUnauthorizedTTL: '45s' } });
  // a struct field the drop-in leaves alone keeps the main file's value
  assert.deepEqual(mergeConfig({ authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m' } } }, { authorization: { mode: 'AlwaysAllow' } }),
    { authorization: { mode: 'AlwaysAllow', webhook: { cacheAuthorizedTTL: '5m' } } });
});

test('rule 2: lists are replaced whole', () => {
  assert.deepEqual(mergeConfig({ clusterDNS: ['10.0.0.10', '10.0.0.11'] }, { clusterDNS: ['10.96.0.10'] }), { clusterDNS: ['10.96.0.10'] });
});

test('rule 3: maps merge per key', () => {
  const merged = mergeConfig({ featureGates: { A: true, B: true } }, { featureGates: { B: false, C: true } });
  assert.deepEqual(merged, { featureGates: { A: true, B: false, C: true } });
});

test('rule 4: a map of lists replaces the list under each key the drop-in has', () => {
  const merged = mergeConfig({ staticPodURLHeader: { 'kubelet-api-support': ['Authorization: 234APSDFA', 'X-Custom-Header: 123'], 'custom-static-pod': ['Authorization: 223EWRWER'] } },
    { staticPodURLHeader: { 'kubelet-api-support': ['Authorization: 8910ABCD'] } });
  assert.deepEqual(merged, { staticPodURLHeader: { 'kubelet-api-support': ['Authorization: 8910ABCD'], 'custom-static-pod': ['Authorization: 223EWRWER'] } });
});

test('drop-ins apply in lexical order; only *.conf files count; defaults fill the rest', async t => {
  const d = await dir(t);
  await writeFile(join(d, '20-b.conf'), head + 'maxPods: 20\n');
  await writeFile(join(d, '10-a.conf'), head + 'maxPods: 10\nclusterDomain: a.local\n');
  await writeFile(join(d, '99-ignored.yaml'), head + 'maxPods: 99\n');
  const c = await loadAgentConfig({ configDir: d });
  assert.equal(c.maxPods, 20);
  assert.equal(c.clusterDomain, 'a.local');
  assert.equal(c.port, 10250);
  assert.equal(c.nodeLeaseDurationSeconds, 40);
  assert.equal(c.evictionHard['memory.available'], '100Mi');
  assert.equal(c.memorySwap.swapBehavior, 'NoSwap');
});

test('bad documents stop start-up with the file and the field named', async t => {
  const d = await dir(t);
  const cases: Array<[string, RegExp]> = [
    [head + 'fooBar: 1\n', /"[^"]*bad\.conf": strict decoding error: unknown field "fooBar"/],
    [head + 'authorization:\n  mode: Webhook\n  extra: 1\n', /unknown field "authorization.extra"/],
    [head + 'port: "x"\n', /port: cannot unmarshal string into Go value of type int32/],
    [head + 'syncFrequency: soon\n', /syncFrequency: time: invalid duration "soon"/],
    [head + 'featureGates:\n  A: "yes"\n', /featureGates: cannot unmarshal object into Go value of type map\[string\]bool/],
    ['apiVersion: v1\nkind: Pod\n', /no kind "Pod" is registered for version "v1"/],
    [head + 'port: [1\n', /bad\.conf/],
    [head + 'port: 1\nport: 2\n', /bad\.conf".*(?:unique|duplicate)/i],
  ];
  for (const [text, want] of cases) {
    await writeFile(join(d, 'bad.conf'), text);
    await assert.rejects(loadAgentConfig({ configDir: d }), want, text);
  }
  await writeFile(join(d, 'bad.conf'), head + 'port: 70000\n');
  await assert.rejects(loadAgentConfig({ configDir: d }), /port \(--port\) 70000 must be between 1 and 65535, inclusive/);
  await writeFile(join(d, 'bad.conf'), head + 'memorySwap:\n  swapBehavior: Lots\n');
  await assert.rejects(loadAgentConfig({ configDir: d }), /memorySwap.swapBehavior "Lots"/);
});
