import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { kubeconfigYaml } from '../../../src/apiserver/kubeconfig.ts';
import { mergeKubeconfig } from '../../../src/client/kubeconfig-merge.ts';
import { parseKubeconfig } from '../../../src/client/kubeconfig.ts';

const admin = (server: string) => kubeconfigYaml({ server, caCertPem: 'CA', clientCertPem: 'CERT', clientKeyPem: 'KEY' });
const theirs = 'apiVersion: v1\nkind: Config\nclusters:\n- name: work\n  cluster:\n    server: https://192.0.2.1\ncontexts:\n- name: work\n  context: {cluster: work, user: me}\nusers:\n- name: me\n  user: {token: t}\ncurrent-context: work\npreferences: {colors: true}\n';

test('merging keeps the user\'s entries and makes the cluster current as "orch"', async () => {
  const merged = mergeKubeconfig(theirs, admin('https://127.0.0.1:6443'), 'orch');
  const kc = parse(merged);
  assert.deepEqual(kc.clusters.map((c: any) => c.name), ['work', 'orch']);
  assert.deepEqual(kc.users.map((u: any) => u.name), ['me', 'orch-admin']);
  assert.deepEqual(kc.contexts.find((c: any) => c.name === 'orch').context, { cluster: 'orch', user: 'orch-admin' });
  assert.equal(kc['current-context'], 'orch');
  assert.deepEqual(kc.preferences, { colors: true });
  const client = await parseKubeconfig(merged);
  assert.equal(client.server, 'https://127.0.0.1:6443');
  assert.equal(client.cert?.toString(), 'CERT');
  assert.equal((await parseKubeconfig(merged, { context: 'work' })).token, 't');
});

test('merging again replaces the earlier entries (a new port) rather than adding more', () => {
  const once = mergeKubeconfig(theirs, admin('https://127.0.0.1:6443'), 'orch');
  const twice = parse(mergeKubeconfig(once, admin('https://127.0.0.1:7443'), 'orch'));
  assert.equal(twice.clusters.filter((c: any) => c.name === 'orch').length, 1);
  assert.equal(twice.clusters.find((c: any) => c.name === 'orch').cluster.server, 'https://127.0.0.1:7443');
  assert.equal(twice.users.length, 2);
});

test('an empty or missing kubeconfig becomes one with only this cluster', () => {
  const kc = parse(mergeKubeconfig('', admin('https://127.0.0.1:6443'), 'orch'));
  assert.deepEqual([kc.apiVersion, kc.kind, kc['current-context'], kc.clusters.length], ['v1', 'Config', 'orch', 1]);
  assert.throws(() => mergeKubeconfig('', 'apiVersion: v1\nkind: Config\n', 'orch'), /no complete current context/);
});
