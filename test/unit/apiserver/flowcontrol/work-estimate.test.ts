import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateWork, maxSeatsOf, mutatingWork } from '../../../../src/apiserver/flowcontrol/work-estimate.ts';
import { WatchTracker } from '../../../../src/apiserver/flowcontrol/watch-tracker.ts';
import { parseRequestInfo } from '../../../../src/apiserver/request-info.ts';

const info = (method: string, url: string) => {
  const [path, q = ''] = url.split('?');
  const query = new URLSearchParams(q);
  return { info: parseRequestInfo(method, path!, query), query };
};

test('a write with fewer than ten interested watches is one seat and nothing after', () => {
  assert.deepEqual(mutatingWork(0, 0), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
  assert.deepEqual(mutatingWork(9, 0), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
});

test('from ten watches on: a final seat per ten watches for 5 ms, reshaped to the widest allowed', () => {
  assert.deepEqual(mutatingWork(10, 0), { initialSeats: 1, finalSeats: 1, additionalLatencyMs: 5 });
  assert.deepEqual(mutatingWork(25, 0), { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 });
  assert.deepEqual(mutatingWork(100, 0), { initialSeats: 1, finalSeats: 10, additionalLatencyMs: 5 });
  // 150 watches: 15 seats for 5 ms become the mutating limit of 10 for 7.5 ms
  assert.deepEqual(mutatingWork(150, 0), { initialSeats: 1, finalSeats: 10, additionalLatencyMs: 7.5 });
  // the level's widest request bounds it too (75 ms of seat-time over 4 seats)
  assert.deepEqual(mutatingWork(150, 4), { initialSeats: 1, finalSeats: 4, additionalLatencyMs: 18.75 });
  assert.deepEqual(mutatingWork(1000, 40), { initialSeats: 1, finalSeats: 10, additionalLatencyMs: 50 });
  assert.equal(maxSeatsOf(mutatingWork(25, 0)), 3);
  assert.equal(maxSeatsOf(mutatingWork(0, 0)), 1);
});

test('create, update, patch and delete are charged for the watches; other verbs and token requests are not', () => {
  const watches = new WatchTracker();
  const forget: Array<() => void> = [];
  for (let i = 0; i < 30; i++) { const w = info('GET', '/api/v1/namespaces/a/configmaps?watch=1'); forget.push(watches.register(w.info, w.query)); }
  const sources = { objects: () => 3, watches: (i: Parameters<WatchTracker['interested']>[0]) => watches.interested(i) };
  const work = (method: string, url: string) => { const r = info(method, url); return estimateWork(r.info, r.query, sources, 0); };
  const three = { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5, watchCount: 30 };
  assert.deepEqual(work('POST', '/api/v1/namespaces/a/configmaps'), three);
  assert.deepEqual(work('PUT', '/api/v1/namespaces/a/configmaps/x'), three);
  assert.deepEqual(work('PATCH', '/api/v1/namespaces/a/configmaps/x'), three);
  assert.deepEqual(work('DELETE', '/api/v1/namespaces/a/configmaps/x'), three);
  assert.deepEqual(work('POST', '/api/v1/namespaces/b/configmaps'), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0, watchCount: 0 }, 'another namespace');
  assert.deepEqual(work('DELETE', '/api/v1/namespaces/a/configmaps'), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 }, 'deletecollection');
  assert.deepEqual(work('GET', '/api/v1/namespaces/a/configmaps/x'), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
  for (let i = 0; i < 30; i++) { const w = info('GET', '/api/v1/namespaces/a/serviceaccounts?watch=1'); forget.push(watches.register(w.info, w.query)); }
  assert.deepEqual(work('POST', '/api/v1/namespaces/a/serviceaccounts/default/token'), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
  assert.equal(work('PATCH', '/api/v1/namespaces/a/serviceaccounts/default').finalSeats, 3);
  for (const f of forget) f();
  assert.equal(work('PUT', '/api/v1/namespaces/a/configmaps/x').finalSeats, 0, 'ended watches are forgotten');
});
