import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/api/log.ts';
import { startServer } from '../../../src/apiserver/start.ts';
import { loadKubeconfig } from '../../../src/client/kubeconfig.ts';
import { mayTake, nextSpec, startLeaderElection } from '../../../src/client/leader-election.ts';
import { createClient, type Client } from '../../../src/client/rest.ts';
import { until } from '../../e2e/support/until.ts';

test('the lease rules: who may take it, and what a take or renewal writes', () => {
  assert.equal(mayTake(undefined, 'a', 0, 0), true, 'no lease');
  assert.equal(mayTake({ holderIdentity: '' }, 'a', 0, 0), true, 'released');
  assert.equal(mayTake({ holderIdentity: 'a', leaseDurationSeconds: 15 }, 'a', 0, 1), true, 'its own');
  assert.equal(mayTake({ holderIdentity: 'b', leaseDurationSeconds: 15 }, 'a', 1000, 15_999), false, 'held, not yet lapsed as observed');
  assert.equal(mayTake({ holderIdentity: 'b', leaseDurationSeconds: 15 }, 'a', 1000, 16_000), true, 'lapsed');
  const first = nextSpec(undefined, 'a', 15, Date.UTC(2026, 0, 1));
  assert.deepEqual(first, { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: '2026-01-01T00:00:00.000000Z', renewTime: '2026-01-01T00:00:00.000000Z', leaseTransitions: 0 });
  const renewed = nextSpec(first, 'a', 15, Date.UTC(2026, 0, 1, 0, 0, 2));
  assert.deepEqual([renewed.acquireTime, renewed.renewTime, renewed.leaseTransitions], ['2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:02.000000Z', 0]);
  const taken = nextSpec(renewed, 'b', 15, Date.UTC(2026, 0, 1, 0, 1));
  assert.deepEqual([taken.holderIdentity, taken.acquireTime, taken.leaseTransitions], ['b', '2026-01-01T00:01:00.000000Z', 1]);
});

test('two candidates on a real API: one leads, the other takes over when it is released or lapses', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-election-'));
  const server = await startServer({ dataDir: dir, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0 });
  const client = createClient(await loadKubeconfig(server.kubeconfigPath));
  t.after(async () => { client.close(); await server.shutdown(); rmSync(dir, { recursive: true, force: true }); });
  const path = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/demo';
  const log: string[] = [];
  const all: Array<{ stop(): Promise<void> }> = [];
  t.after(() => Promise.all(all.map(e => e.stop())));
  const candidate = (identity: string, c: Client = client) => remember(startLeaderElection({
    client: c, log: silentLogger, namespace: 'kube-system', name: 'demo', identity,
    leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 100,
    onStartedLeading: () => log.push(`${identity} leads`), onStoppedLeading: () => log.push(`${identity} stops`),
  }));
  const remember = <T extends { stop(): Promise<void> }>(e: T) => { all.push(e); return e; };

  const a = candidate('a');
  await until('a leads', async () => a.isLeader());
  const b = candidate('b');
  await new Promise(r => setTimeout(r, 600));
  assert.equal(b.isLeader(), false, 'b stands by while a renews');
  let lease = await client.get(path);
  assert.deepEqual([lease.spec.holderIdentity, lease.spec.leaseDurationSeconds, lease.spec.leaseTransitions], ['a', 2, 0]);
  assert.match(lease.spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

  // released on stop: b takes it within a retry period or two, not a lease duration
  const released = Date.now();
  await a.stop();
  await until('b leads', async () => b.isLeader());
  assert.ok(Date.now() - released < 1000, `taken over in ${Date.now() - released} ms`);
  lease = await client.get(path);
  assert.deepEqual([lease.spec.holderIdentity, lease.spec.leaseTransitions], ['b', 1]);

  // b's API goes away (its renewals fail): b stops leading after the renew deadline, and c,
  // which sees the lease unchanged for its duration, takes it
  let broken = false;
  const failing: Client = { ...client, get: (p, q) => (broken ? Promise.reject(new Error('connection refused')) : client.get(p, q)), update: (p, body, q) => (broken ? Promise.reject(new Error('connection refused')) : client.update(p, body, q)) };
  await b.stop();
  const b2 = candidate('b2', failing);
  await until('b2 leads', async () => b2.isLeader());
  const c = candidate('c');
  broken = true;
  const brokeAt = Date.now();
  await until('b2 stops leading', async () => !b2.isLeader(), 5000);
  assert.ok(Date.now() - brokeAt >= 900, 'not before the renew deadline');
  await until('c leads', async () => c.isLeader(), 5000);
  assert.ok(Date.now() - brokeAt >= 1400, `c waited out the lease as it observed it: ${Date.now() - brokeAt} ms`);
  await b2.stop();
  await c.stop();
  assert.deepEqual(log, ['a leads', 'a stops', 'b leads', 'b stops', 'b2 leads', 'b2 stops', 'c leads', 'c stops']);
});
