// `orch backup` and `orch restore` on SQLite: a snapshot taken online during writes, refused to a
// caller without the right, refused over a running server, restored with the revision bumped so
// that a watch from before the restore is told to list again (410 Expired), and an offline copy
// when no server runs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot, startOrch } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';

const run = promisify(execFile);
const orchCli = (...args: string[]) => run(join(repoRoot, 'bin/orch'), args);
const cm = (name: string) => JSON.stringify({ metadata: { name }, data: { v: name } });
const names = async (c: RawClient) => ((await c.request('GET', '/api/v1/namespaces/default/configmaps')).json().items as any[]).map(i => i.metadata.name).filter(n => n.startsWith('cm-')).sort();

test('orch backup online during writes, orch restore with the revision bumped, offline backup', async t => {
  const orch = await startOrch();
  t.after(() => orch.cleanup());
  const c = rawClient(orch.kubeconfig);
  for (const n of ['cm-a', 'cm-b']) assert.equal((await c.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm(n) })).status, 201);
  const before = (await c.request('GET', '/api/v1/namespaces/default/configmaps')).json().metadata.resourceVersion;

  // writes go on while the copy is made; the copy is one committed state at its revision
  let writing = true;
  let written = 0;
  const writer = (async () => { while (writing) await c.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm(`w-${written++}`) }); })();
  const file = join(orch.dataDir, '..', `${orch.dataDir.split('/').pop()}-snapshot.db`);
  t.after(() => rm(file, { force: true }));
  const saved = await orchCli('backup', file, '--kubeconfig', orch.kubeconfig);
  writing = false;
  await writer;
  const m = /^Snapshot saved to (\S+) \(revision (\d+), [\d.]+ MiB\)\n$/.exec(saved.stdout);
  assert.ok(m, saved.stdout);
  assert.ok(Number(m[2]) >= Number(before));
  assert.ok((await stat(file)).size > 0);

  // only a caller granted the non-resource URL gets the database (it holds every Secret)
  const denied = await c.request('GET', '/storage/snapshot', { headers: { 'Impersonate-User': 'bob' } });
  assert.equal(denied.status, 403);
  assert.equal(denied.json().message, 'forbidden: User "bob" cannot get path "/storage/snapshot"');

  // the database changes after the snapshot; a watch starts from now
  assert.equal((await c.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('cm-c') })).status, 201);
  assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/configmaps/cm-a')).status, 200);
  const rvBeforeRestore = (await c.request('GET', '/api/v1/namespaces/default/configmaps')).json().metadata.resourceVersion;

  // a running server's database is not replaced
  await assert.rejects(orchCli('restore', file, '--data-dir', orch.dataDir), (err: any) => /is in use by another process: stop the server first/.test(err.stderr));
  await orch.stop();

  const restored = await orchCli('restore', file, '--data-dir', orch.dataDir);
  assert.match(restored.stdout, new RegExp(`^Restored ${file} into ${orch.dataDir} at revision (\\d+) \\(earlier revisions count as compacted: clients list again\\)\\nThe database it replaced is kept as ${orch.dataDir}/orch\\.db\\.before-restore-`));

  const again = await startOrch({ dataDir: orch.dataDir });
  t.after(() => again.stop());
  const c2 = rawClient(again.kubeconfig);
  assert.deepEqual(await names(c2), ['cm-a', 'cm-b'], 'the state of the snapshot: cm-a back, cm-c never written');
  const list = (await c2.request('GET', '/api/v1/namespaces/default/configmaps')).json();
  assert.ok(Number(list.metadata.resourceVersion) > 1_000_000_000, list.metadata.resourceVersion);
  // a client that saw revisions of the replaced database is told to list again
  const stale = await c2.request('GET', `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rvBeforeRestore}`);
  assert.match(stale.body, /"code":410/);
  assert.match(stale.body, /"reason":"Expired"/);
  // writes go on above the bumped revision
  const created = await c2.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('cm-d') });
  assert.equal(created.status, 201);
  assert.ok(Number(created.json().metadata.resourceVersion) > Number(list.metadata.resourceVersion));

  // with no server on the data dir, the file is copied directly
  await again.stop();
  const offline = join(orch.dataDir, 'offline.db');
  const out = await orchCli('backup', offline, '--data-dir', orch.dataDir);
  assert.match(out.stdout, /^Snapshot saved to \S+ \(revision \d+, [\d.]+ MiB\)\n$/);
  await assert.rejects(orchCli('restore', join(orch.dataDir, 'admin.kubeconfig'), '--data-dir', orch.dataDir), (err: any) => /is not an orch snapshot \(not an SQLite database\)/.test(err.stderr));
});
