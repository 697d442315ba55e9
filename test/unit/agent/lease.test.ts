import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/api/log.ts';
import { ApiError } from '../../../src/client/api-error.ts';
import type { Client } from '../../../src/client/rest.ts';
import { startLeaseHeartbeat } from '../../../src/agent/node-status/lease.ts';
import { fakeClock } from './fake-clock.ts';

const apiError = (code: number, reason: string) => new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason: reason as never, message: reason });

/** a client whose lease calls fail while `down` is set */
function leaseClient(state: { down: boolean; writes: Array<{ method: string; body: any }>; gets?: number }): Client & { bump(): void } {
  let stored: any;
  let rv = 0;
  const fail = () => Promise.reject(apiError(503, 'ServiceUnavailable'));
  const c: Partial<Client> & { bump(): void } = {
    get: async () => { if (state.down) return fail(); state.gets = (state.gets ?? 0) + 1; if (!stored) throw apiError(404, 'NotFound'); return structuredClone(stored); },
    create: async (_p, body: any) => { if (state.down) return fail(); stored = { ...body, metadata: { ...body.metadata, resourceVersion: String(++rv) } }; state.writes.push({ method: 'create', body }); return structuredClone(stored); },
    update: async (_p, body: any) => {
      if (state.down) return fail();
      if (body.metadata.resourceVersion !== stored?.metadata.resourceVersion) throw apiError(409, 'Conflict');
      stored = { ...body, metadata: { ...body.metadata, resourceVersion: String(++rv) } };
      state.writes.push({ method: 'update', body });
      return structuredClone(stored);
    },
    // someone else wrote the lease meanwhile
    bump: () => { stored = { ...stored, metadata: { ...stored.metadata, resourceVersion: String(++rv) } }; },
  };
  return c as Client & { bump(): void };
}

test('the lease is created, then renewed every quarter of its duration', async () => {
  const clock = fakeClock();
  const state = { down: false, writes: [] as Array<{ method: string; body: any }> };
  const hb = startLeaseHeartbeat({ client: leaseClient(state), nodeName: 'n1', leaseDurationSeconds: 40, clock, log: silentLogger, nodeUid: () => 'uid-1' });
  await clock.advance(35_000);
  hb.stop();
  assert.deepEqual(state.writes.map(w => w.method), ['create', 'update', 'update', 'update']);
  const first = state.writes[0]!.body;
  assert.equal(first.metadata.namespace, 'kube-node-lease');
  assert.equal(first.spec.holderIdentity, 'n1');
  assert.equal(first.spec.leaseDurationSeconds, 40);
  assert.match(first.spec.renewTime, /^2026-11-22T10:00:00\.000000Z$/);
  assert.deepEqual(first.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'uid-1' }]);
  assert.equal(state.writes[3]!.body.spec.renewTime, '2026-11-22T10:00:30.000000Z');
  assert.deepEqual(clock.delays.slice(0, 3), [10_000, 10_000, 10_000]);
});

test('failed renewals back off from 200 ms, doubling, capped at 7 s; success restores the interval', async () => {
  const clock = fakeClock();
  const state = { down: true, writes: [] as Array<{ method: string; body: any }> };
  const hb = startLeaseHeartbeat({ client: leaseClient(state), nodeName: 'n1', leaseDurationSeconds: 40, clock, log: silentLogger });
  await clock.advance(30_000);
  assert.deepEqual(clock.delays.slice(0, 8), [200, 400, 800, 1600, 3200, 6400, 7000, 7000]);
  state.down = false;
  const before = clock.delays.length;
  await clock.advance(7_000);
  hb.stop();
  assert.equal(state.writes[0]?.method, 'create');
  assert.equal(clock.delays[before], 10_000);
});

test('a renewal writes the lease it last wrote, reading it again only after a conflict', async () => {
  const clock = fakeClock();
  const state = { down: false, writes: [] as Array<{ method: string; body: any }>, gets: 0 };
  const client = leaseClient(state);
  const hb = startLeaseHeartbeat({ client, nodeName: 'n1', leaseDurationSeconds: 40, clock, log: silentLogger });
  await clock.advance(25_000);
  // the first heartbeat looked for the lease (not found) and created it; two renewals read nothing
  assert.equal(state.gets, 1);
  assert.deepEqual(state.writes.map(w => w.method), ['create', 'update', 'update']);
  client.bump();
  await clock.advance(10_000);
  hb.stop();
  assert.equal(state.gets, 2);
  assert.equal(state.writes.length, 4, 'the conflicting write was retried on the lease read again');
});

test('with jitter, the first renewal is put off by up to one interval and each wait lengthened by up to the fraction', async () => {
  const clock = fakeClock();
  const state = { down: false, writes: [] as Array<{ method: string; body: any }> };
  const draws = [0.5, 1, 0];
  const hb = startLeaseHeartbeat({ client: leaseClient(state), nodeName: 'n1', leaseDurationSeconds: 40, clock, log: silentLogger, jitter: { fraction: 0.04, random: () => draws.shift() ?? 0.25 } });
  await clock.advance(31_000);
  hb.stop();
  assert.deepEqual(clock.delays.slice(0, 4), [5_000, 10_400, 10_000, 10_100]);
});
