// Backup and restore of orch on etcd with etcd's own tools, as docs/storage.md tells operators:
// `etcdctl snapshot save` while orch runs, `etcdctl snapshot restore` into a new member, and orch
// on the restored member serves the state of the snapshot. The SQLite-only snapshot URL is not
// offered there.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startOrch } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';
import { etcdBinary, startEtcd } from '../support/etcd.ts';
import { requires } from '../support/requires.ts';

const run = promisify(execFile);
const etcdctl = spawnSync('sh', ['-c', 'command -v etcdctl'], { encoding: 'utf8' }).stdout.trim();
const needs = requires((!etcdBinary() && 'etcd is not installed') || (!etcdctl && 'etcdctl is not installed (apt-get install etcd-client)'));
if (needs.skip) console.log(`# skipping the etcd snapshot test: ${needs.skip}`);

const freePort = () => new Promise<number>((resolve, reject) => {
  const s = createServer();
  s.once('error', reject);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
});
const cm = (name: string) => JSON.stringify({ metadata: { name }, data: { v: name } });

test('etcdctl snapshot save and restore carry orch\'s objects', needs, async t => {
  const base = await mkdtemp(join(tmpdir(), 'orch-etcd-snap-'));
  t.after(() => rm(base, { recursive: true, force: true }));
  const etcd = await startEtcd(1);
  t.after(() => etcd.close());
  const etcdArgs = (endpoint: string) => ['--storage-backend', 'etcd3', '--etcd-servers', endpoint];
  const orch = await startOrch({ args: etcdArgs(etcd.endpoints[0]!) });
  t.after(() => orch.cleanup());
  const c = rawClient(orch.kubeconfig);
  for (const n of ['cm-a', 'cm-b']) assert.equal((await c.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm(n) })).status, 201);
  // the SQLite snapshot URL does not exist on etcd: etcd's own tool is the way
  assert.equal((await c.request('GET', '/storage/snapshot')).status, 404);

  const file = join(base, 'snap.db');
  const saved = await run(etcdctl, ['--endpoints', etcd.endpoints[0]!, 'snapshot', 'save', file], { env: { ...process.env, ETCDCTL_API: '3' } });
  assert.match(saved.stdout + saved.stderr, /Snapshot saved at/);
  assert.equal((await c.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('cm-c') })).status, 201);
  await orch.stop();
  await etcd.close();

  // a new single-member cluster from the snapshot
  const [client, peer] = [await freePort(), await freePort()];
  const restoredDir = join(base, 'restored');
  await run(etcdctl, ['snapshot', 'restore', file, '--data-dir', restoredDir, '--name', 'r0',
    '--initial-cluster', `r0=http://127.0.0.1:${peer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${peer}`], { env: { ...process.env, ETCDCTL_API: '3' } });
  const member = spawn(etcdBinary()!, ['--name', 'r0', '--data-dir', restoredDir,
    '--listen-client-urls', `http://127.0.0.1:${client}`, '--advertise-client-urls', `http://127.0.0.1:${client}`,
    '--listen-peer-urls', `http://127.0.0.1:${peer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${peer}`,
    '--log-level', 'error', '--logger', 'zap'], { stdio: 'ignore' });
  t.after(() => { member.kill('SIGKILL'); });
  const again = await startOrch({ dataDir: orch.dataDir, args: etcdArgs(`http://127.0.0.1:${client}`) });
  t.after(() => again.stop());
  const items = (await rawClient(again.kubeconfig).request('GET', '/api/v1/namespaces/default/configmaps')).json().items as any[];
  assert.deepEqual(items.map(i => i.metadata.name).filter(n => n.startsWith('cm-')).sort(), ['cm-a', 'cm-b']);
});
