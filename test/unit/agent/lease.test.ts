import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/api/log.ts';
import { ApiError } from '../../../src/client/api-error.ts';
import type { Client } from '../../../src/client/rest.ts';
import { startLeaseHeartbeat } from '../../../src/agent/node-status/lease.ts';
import { fakeClock } from './fake-clock.ts';

const apiError = (code: number, reason: string) => new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason: reason as never, message: reason });

/** a client whose lease calls fail while `down` is set */
function leaseClient(state: { down: boolean; writes: Array<{ method: string; body: any }> }): Client {
  let stored: any;
  const fail = () => Promise.reject(apiError(503, 'ServiceUnavailable'));
  const c: Partial<Client> = {
    get: async () => { if (state.down) return fail(); if (!stored) throw apiError(404, 'NotFound'); return structuredClone(stored); },
    create: async (_p, body: any) => { if (state.down) return fail(); stored = { ...body, metadata: { ...body.metadata, resourceVersion: '1' } }; state.writes.push({ method: 'create', body }); return stored; },
    update: async (_p, body: any) => { if (state.down) return fail(); stored = body; state.writes.push({ method: 'update', body }); return stored; },
  };
  return c as Client;
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
