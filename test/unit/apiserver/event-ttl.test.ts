// Events expire an hour (--event-ttl) after their last write: a repeat renews one, others go.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testRegistry, type TestRegistry } from '../support/registry.ts';
import { lastWriteOf, startEventTtl } from '../../../src/apiserver/event-ttl.ts';

let reg: TestRegistry;
before(async () => { reg = await testRegistry(); });
after(() => reg.close());

const hour = 3_600_000;
const event = (name: string, fields: Record<string, unknown>) => ({
  metadata: { name, namespace: 'default' },
  involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'Started', message: 'm', type: 'Normal', source: { component: 'test' },
  ...fields,
});

test('the last write an Event records is the newest of its times', () => {
  assert.equal(lastWriteOf({ metadata: { creationTimestamp: '2026-01-01T00:00:00Z' }, lastTimestamp: '2026-01-01T02:00:00Z', series: { lastObservedTime: '2026-01-01T03:00:00.000000Z' } } as never), Date.parse('2026-01-01T03:00:00Z'));
  assert.equal(lastWriteOf({ metadata: {} } as never), 0);
});

const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

test('a sweep deletes the Events whose last write is older than the TTL, across namespaces', async () => {
  const info = reg.info('', 'events');
  // the test registry's clock: every Event is created at this time
  const created = Date.parse((await reg.store.create(info, 'default', event('old', { firstTimestamp: stamp(Date.parse('2026-01-01T00:00:00Z')), lastTimestamp: stamp(Date.parse('2026-01-01T00:00:00Z')) }) as never)).metadata!.creationTimestamp!);
  // a repeat recorded 40 minutes after creation renews the Event
  await reg.store.create(info, 'default', event('repeated', { firstTimestamp: stamp(created), lastTimestamp: stamp(created + 40 * 60_000), count: 9 }) as never);
  await reg.store.create(info, 'kube-system', event('plain', {}) as never);
  const sweepAt = async (ms: number) => {
    const ttl = startEventTtl(reg.store, reg.catalog, { ttlMs: hour, now: () => ms, everyMs: hour });
    try { return await ttl.sweep(); } finally { ttl.stop(); }
  };
  const names = async () => (await reg.store.list(info, undefined)).items.map(e => e.metadata!.name).sort();
  // within the hour nothing goes, not even the Event whose own times are a day old: it was written now
  assert.equal(await sweepAt(created + 59 * 60_000), 0);
  assert.deepEqual(await names(), ['old', 'plain', 'repeated']);
  assert.equal(await sweepAt(created + 61 * 60_000), 2);
  assert.deepEqual(await names(), ['repeated']);
  assert.equal(await sweepAt(created + 101 * 60_000), 1);
  assert.deepEqual(await names(), []);
});
