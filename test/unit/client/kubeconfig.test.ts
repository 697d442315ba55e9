import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeconfig, parseKubeconfig } from '../../../src/client/kubeconfig.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

test('inline data of the current context', async () => {
  const cfg = await parseKubeconfig(`
apiVersion: v1
kind: Config
current-context: b
clusters:
- name: one
  cluster: { server: https://wrong:1 }
- name: two
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority-data: ${b64('CA')}
    tls-server-name: kubernetes
contexts:
- name: a
  context: { cluster: one, user: u1 }
- name: b
  context: { cluster: two, user: u2 }
users:
- name: u1
  user: { token: nope }
- name: u2
  user:
    client-certificate-data: ${b64('CERT')}
    client-key-data: ${b64('KEY')}
`);
  assert.equal(cfg.server, 'https://127.0.0.1:6443');
  assert.deepEqual([cfg.ca?.toString(), cfg.cert?.toString(), cfg.key?.toString(), cfg.token, cfg.tlsServerName], ['CA', 'CERT', 'KEY', undefined, 'kubernetes']);
});

test('file variants relative to the kubeconfig, token files, and an explicit context', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-kc-'));
  writeFileSync(join(dir, 'ca.crt'), 'CAFILE');
  writeFileSync(join(dir, 'tok'), 'secret-token\n');
  writeFileSync(join(dir, 'config'), `
current-context: main
clusters:
- name: c
  cluster: { server: 'http://localhost:8080', certificate-authority: ca.crt, insecure-skip-tls-verify: true }
contexts:
- name: main
  context: { cluster: c, user: t }
- name: other
  context: { cluster: c, user: s }
users:
- name: t
  user: { tokenFile: ${join(dir, 'tok')} }
- name: s
  user: { token: direct }
`);
  const cfg = await loadKubeconfig(join(dir, 'config'));
  assert.deepEqual([cfg.server, cfg.ca?.toString(), cfg.token, cfg.insecureSkipTLSVerify], ['http://localhost:8080', 'CAFILE', 'secret-token', true]);
  assert.equal((await loadKubeconfig(join(dir, 'config'), 'other')).token, 'direct');
});

test('a missing context or server is an error naming it', async () => {
  await assert.rejects(parseKubeconfig('current-context: x\ncontexts: []\n'), /context "x" not found/);
  await assert.rejects(parseKubeconfig('current-context: x\ncontexts: [{name: x, context: {cluster: c}}]\nclusters: [{name: c, cluster: {}}]\n'), /cluster "c" has no server/);
});
