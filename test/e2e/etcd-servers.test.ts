// Two `orch server` processes on one three-member etcd cluster: what is written through one is
// seen by watches on the other, in order, with the same resourceVersions; losing an etcd member
// or an API server keeps the rest serving; losing all of etcd makes the servers not ready and
// answer 503, and they recover by themselves when it returns.

import { after, before, describe, test } from 'node:test';
import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { etcdBinary, startEtcd, type EtcdCluster } from '../support/etcd.ts';
import { requires } from '../support/requires.ts';

const cms = '/api/v1/namespaces/default/configmaps';

async function eventually(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise(r => setTimeout(r, 200));
  }
}

const needsEtcd = requires(!etcdBinary() && 'etcd is not installed');
if (needsEtcd.skip) console.log('# skipping multi-server etcd tests: etcd is not installed (apt-get install etcd-server)');

describe('two API servers on a three-member etcd', needsEtcd, () => {
  let etcd: EtcdCluster;
  let certDir: string;
  let a: OrchProcess, b: OrchProcess;
  let ca: RawClient, cb: RawClient;
  before(async () => {
    etcd = await startEtcd(3);
    certDir = await mkdtemp(join(tmpdir(), 'orch-certs-'));
    const args = ['--storage-backend=etcd3', `--etcd-servers=${etcd.endpoints.join(',')}`, `--cert-dir=${certDir}`];
    a = await startOrch({ args });
    b = await startOrch({ args });
    ca = rawClient(a.kubeconfig);
    cb = rawClient(b.kubeconfig);
  });
  after(async () => {
    await a?.stop(); await b?.stop();
    await a?.cleanup(); await b?.cleanup();
    await etcd?.close();
    if (certDir) await rm(certDir, { recursive: true, force: true });
  });

  test('a write through one server reaches the other\'s watch in order, with the same resourceVersion', async () => {
    const start = (await cb.request('GET', cms)).json().metadata.resourceVersion;
    const w = await cb.watch(`${cms}?watch=1&resourceVersion=${start}`);
    const created = (await ca.request('POST', cms, { body: '{"metadata":{"name":"shared"},"data":{"v":"1"}}' })).json();
    const updated = (await ca.request('PUT', `${cms}/shared`, { body: JSON.stringify({ ...created, data: { v: '2' } }) })).json();
    assert.equal((await ca.request('DELETE', `${cms}/shared`)).status, 200);
    await w.waitFor(3, 10_000);
    w.close();
    assert.deepEqual(w.events.map(e => [e.type, e.object.metadata.resourceVersion]),
      [['ADDED', created.metadata.resourceVersion], ['MODIFIED', updated.metadata.resourceVersion], ['DELETED', w.events[2]!.object.metadata.resourceVersion]]);
    assert.ok(Number(w.events[2]!.object.metadata.resourceVersion) > Number(updated.metadata.resourceVersion));
    // and a read through the other server agrees
    const again = (await ca.request('POST', cms, { body: '{"metadata":{"name":"read-back"}}' })).json();
    assert.equal((await cb.request('GET', `${cms}/read-back`)).json().metadata.resourceVersion, again.metadata.resourceVersion);
  });

  test('kubectl writes through one server; kubectl get -w on the other sees it', requires(!kubectls().length && 'no kubectl'), async () => {
    const bin = kubectls()[0]!.path;
    // ended once the line is there (its request timeout only bounds a failure: waiting it out cost 8 s)
    const child = spawn(bin, ['--kubeconfig', b.kubeconfig, 'get', 'configmaps', '-w', '--request-timeout=8s', '-o', 'name'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', d => { stdout += d; });
    const exited = new Promise(r => child.once('exit', r));
    try {
      await new Promise(r => setTimeout(r, 1500));
      assert.equal((await kubectl(bin, a.kubeconfig, ['create', 'configmap', 'from-kubectl', '--from-literal=a=b'])).code, 0);
      await eventually('kubectl get -w to print it (or end)', async () => /configmap\/from-kubectl/.test(stdout) || child.exitCode !== null, 10_000);
      assert.match(stdout, /configmap\/from-kubectl/);
    } finally {
      child.kill();
      await exited;
    }
  });

  test('one etcd member down: both servers keep serving', async () => {
    await etcd.stop(2);
    try {
      const r = await ca.request('POST', cms, { body: '{"metadata":{"name":"quorum"}}' });
      assert.equal(r.status, 201, r.body);
      await eventually('the other server sees the write', async () => (await cb.request('GET', `${cms}/quorum`)).status === 200);
    } finally {
      await etcd.start(2);
    }
  });

  test('all of etcd down: not ready and 503; back by itself when etcd returns', async () => {
    const since = (await cb.request('GET', cms)).json().metadata.resourceVersion;
    const w = await cb.watch(`${cms}?watch=1&resourceVersion=${since}`);
    for (const i of [0, 1, 2]) await etcd.stop(i);
    await eventually('readyz fails', async () => (await cb.request('GET', '/readyz', { anonymous: true })).status !== 200);
    const down = await cb.request('POST', cms, { body: '{"metadata":{"name":"while-down"}}' });
    assert.ok(down.status >= 500, `status ${down.status}`);
    assert.equal(down.json().kind, 'Status');
    await Promise.all([0, 1, 2].map(i => etcd.start(i)));
    await eventually('readyz passes again', async () => (await cb.request('GET', '/readyz', { anonymous: true })).status === 200, 30_000);
    await eventually('writes work again', async () => (await cb.request('POST', cms, { body: '{"metadata":{"name":"after-outage"}}' })).status === 201, 30_000);
    await eventually('the other server sees them', async () => (await ca.request('GET', `${cms}/after-outage`)).status === 200);
    // a watch open through the outage either goes on without a gap or says it must re-list
    await eventually('the watch resumes or ends', async () => w.events.some(e => e.object?.metadata?.name === 'after-outage' || e.type === 'ERROR') || w.status() !== 200, 15_000).catch(() => {});
    w.close();
    const names = w.events.filter(e => e.type !== 'ERROR' && e.type !== 'BOOKMARK').map(e => e.object.metadata.name);
    const ended = w.events.some(e => e.type === 'ERROR');
    assert.ok(names.includes('after-outage') || ended, `watch saw ${JSON.stringify(names)} and no ERROR`);
    assert.ok(!names.includes('while-down'), 'a write refused during the outage is not seen');
  });

  test('one API server gone: the other serves', async () => {
    await a.kill();
    const r = await cb.request('POST', cms, { body: '{"metadata":{"name":"survivor"}}' });
    assert.equal(r.status, 201);
    assert.equal((await cb.request('GET', `${cms}/survivor`)).status, 200);
  });
});
