import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allocateSeats, initialLimit, levelLimits, serverConcurrencyLimit } from '../../../../src/apiserver/flowcontrol/limits.ts';
import { Dispatcher } from '../../../../src/apiserver/flowcontrol/dispatcher.ts';
import { level, TestClassifier } from '../../../support/flow-classifier.ts';
import type { RequestInfo } from '../../../../src/apiserver/request-info.ts';

// the shares of Kubernetes' bootstrap levels (exempt has none)
const bootstrap = [
  level('exempt', { exempt: true, nominalConcurrencyShares: 0 }),
  level('system', { nominalConcurrencyShares: 30, lendablePercent: 33, queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } }),
  level('leader-election', { nominalConcurrencyShares: 10, queuing: { queues: 16, handSize: 4, queueLengthLimit: 50 } }),
  level('node-high', { nominalConcurrencyShares: 40, lendablePercent: 25, queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } }),
  level('workload-high', { nominalConcurrencyShares: 40, lendablePercent: 50, queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } }),
  level('workload-low', { nominalConcurrencyShares: 100, lendablePercent: 90, queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } }),
  level('global-default', { nominalConcurrencyShares: 20, lendablePercent: 50, queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } }),
  level('catch-all', { nominalConcurrencyShares: 5, queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } }),
];

test('the server limit is the sum of both in-flight flags, and must be positive with APF', () => {
  assert.equal(serverConcurrencyLimit(400, 200), 600);
  assert.throws(() => serverConcurrencyLimit(0, 0), /MaxRequestsInFlight=0 and MaxMutatingRequestsInFlight=0; they must add up to something positive/);
});

test('nominal seats are the ceiling of the level\'s share of the server limit, as kube-apiserver shows them', () => {
  const l = levelLimits(bootstrap, 600);
  const nominal = Object.fromEntries([...l].map(([n, v]) => [n, v.nominal]));
  // the nominal_limit_seats a default kube-apiserver reports
  assert.deepEqual(nominal, { exempt: 0, system: 74, 'leader-election': 25, 'node-high': 98, 'workload-high': 98, 'workload-low': 245, 'global-default': 49, 'catch-all': 13 });
  const low = l.get('workload-low')!;
  assert.equal(low.lendable, 221, '90% of 245, rounded');
  assert.equal(low.lower, 24);
  assert.equal(low.upper, 245 + 600, 'no borrowing limit: up to the whole server');
  assert.equal(low.maxSeats, 37, '15% of nominal, under nominal/handSize (the estimator caps it at 10)');
  assert.equal(l.get('catch-all')!.maxSeats, 2, 'min(ceil(13 * 0.15), floor(13 / 6))');
  assert.equal(initialLimit(low), 245 - 110, 'a new level starts lending half of what it may');
  const capped = levelLimits([level('a', { nominalConcurrencyShares: 1, borrowingLimitPercent: 50 }), level('b', { nominalConcurrencyShares: 1 })], 100).get('a')!;
  assert.deepEqual([capped.nominal, capped.borrowing, capped.upper], [50, 25, 75]);
});

test('seats are divided in proportion to demand within each level\'s bounds', () => {
  // a busy level borrows what an idle one lends, never past its upper bound nor below the other's lower
  assert.deepEqual(allocateSeats(100, [{ lower: 50, upper: 100, target: 100 }, { lower: 25, upper: 100, target: 25 }]).map(Math.round), [75, 25]);
  assert.deepEqual(allocateSeats(100, [{ lower: 10, upper: 60, target: 500 }, { lower: 10, upper: 100, target: 10 }]).map(Math.round), [60, 40]);
  // equal demand: equal seats
  assert.deepEqual(allocateSeats(90, [{ lower: 0, upper: 90, target: 30 }, { lower: 0, upper: 90, target: 30 }, { lower: 0, upper: 90, target: 30 }]).map(Math.round), [30, 30, 30]);
  // bounds that cannot all be met give the lower (or upper) bounds
  assert.deepEqual(allocateSeats(10, [{ lower: 8, upper: 9, target: 8 }, { lower: 8, upper: 9, target: 8 }]), [8, 8]);
});

test('a busy level borrows the seats an idle level lends once demand has been measured, and a new configuration resizes', async () => {
  let now = 0;
  const info: RequestInfo = { isResourceRequest: true, path: '/api/v1/pods', group: '', version: 'v1', resource: 'pods', verb: 'create', parts: [] };
  const classifier = new TestClassifier([
    level('busy', { nominalConcurrencyShares: 1, lendablePercent: 50, queuing: { queues: 1, handSize: 1, queueLengthLimit: 100 } }),
    level('idle', { nominalConcurrencyShares: 1, lendablePercent: 50, queuing: { queues: 1, handSize: 1, queueLengthLimit: 100 } }),
  ], () => ({ flowSchema: 'fs', level: 'busy' }));
  const d = new Dispatcher({ classifier, serverConcurrencyLimit: 20, adjustIntervalMs: 0, now: () => now });
  // with no demand seen yet, the levels share the nominal seats alike
  assert.deepEqual(d.limitsOf('busy'), { nominal: 10, lendable: 5, borrowing: 20, lower: 5, upper: 30, maxSeats: 2, current: 10 });
  const tickets = await Promise.all(Array.from({ length: 8 }, () => d.admit({ name: 'u', groups: [] }, info, new URLSearchParams(), 1000)));
  const waiting = Array.from({ length: 12 }, () => d.admit({ name: 'u', groups: [] }, info, new URLSearchParams(), 1000));
  now += 10_000;
  d.adjustBorrowing();
  // demand 20 (10 running, 10 waiting) against 20 seats in all: the busy level keeps its 10 and
  // takes in proportion to its demand from what the idle one lends
  assert.equal(d.limitsOf('busy')!.current, 15);
  assert.equal(d.limitsOf('idle')!.current, 5);
  // the seats it borrowed are used at once
  const more = await Promise.all(waiting.slice(0, 7));
  assert.equal(more.filter(t => t.admitted).length, 7);
  for (const t of [...tickets, ...more]) if (t.admitted) t.release();
  for (const t of await Promise.all(waiting.slice(7))) if (t.admitted) t.release();
  classifier.setLevels([...classifier.levels, level('third', { nominalConcurrencyShares: 2 })]);
  assert.equal(d.limitsOf('third')!.nominal, 10);
  assert.equal(d.limitsOf('idle')!.nominal, 5);
  d.close();
});
