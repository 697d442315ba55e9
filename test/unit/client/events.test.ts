import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/api/log.ts';
import { eventRecorder } from '../../../src/client/events.ts';
import { eventually, startInProcessApi } from '../support/in-process-api.ts';

const target = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default', uid: 'u1' } };
const listEvents = async (client: any) => (await client.list('/api/v1/namespaces/default/events')).items.filter((e: any) => e.involvedObject.name === 'web');

test('a correlating recorder counts repeats on one event; another message, or no correlation, makes another', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  let now = Date.parse('2026-01-01T00:00:00Z');
  const rec = eventRecorder(api.client, 'tester', silentLogger, undefined, () => now, { correlate: true });
  for (let i = 0; i < 3; i++) { rec.record(target, 'Warning', 'Failed', 'the same'); now += 15_000; }
  rec.record(target, 'Warning', 'Failed', 'another');
  const events = await eventually(async () => { const e = await listEvents(api.client); return e.length === 2 && e.some((x: any) => x.count === 3) && e; }, 'two events, one counted thrice');
  const same = events.find((e: any) => e.message === 'the same');
  assert.deepEqual([same.count, same.firstTimestamp, same.lastTimestamp], [3, '2026-01-01T00:00:00Z', '2026-01-01T00:00:30Z']);

  // deleted meanwhile: the next repeat records it afresh, keeping its count
  await api.client.delete(`/api/v1/namespaces/default/events/${same.metadata.name}`);
  rec.record(target, 'Warning', 'Failed', 'the same');
  const again = await eventually(async () => (await listEvents(api.client)).find((e: any) => e.message === 'the same'), 'recreated');
  assert.equal(again.count, 4);

  const plain = eventRecorder(api.client, 'tester', silentLogger);
  plain.record(target, 'Normal', 'Plain', 'x');
  plain.record(target, 'Normal', 'Plain', 'x');
  await eventually(async () => (await listEvents(api.client)).filter((e: any) => e.reason === 'Plain').length === 2, 'two plain events');
});

test('the spam filter: 25 events about one object at once, then one per 5 minutes; other objects unaffected', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  let now = Date.parse('2026-01-01T00:00:00Z');
  const rec = eventRecorder(api.client, 'replicaset-controller', silentLogger, undefined, () => now);
  for (let i = 0; i < 30; i++) rec.record(target, 'Normal', 'SuccessfulCreate', `Created pod: web-${i}`);
  const other = { ...target, metadata: { ...target.metadata, name: 'other', uid: 'u2' } };
  rec.record(other, 'Normal', 'SuccessfulCreate', 'Created pod: other-0');
  await eventually(async () => (await api.client.list('/api/v1/namespaces/default/events')).items.some((e: any) => e.involvedObject.name === 'other'), 'the other object\'s event');
  const made = (await listEvents(api.client)).map((e: any) => e.message);
  assert.equal(made.length, 25);
  assert.ok(made.includes('Created pod: web-24') && !made.includes('Created pod: web-25'));
  now += 299_000;
  rec.record(target, 'Normal', 'SuccessfulCreate', 'Created pod: too-soon');
  now += 2_000;
  rec.record(target, 'Normal', 'SuccessfulCreate', 'Created pod: after-5-minutes');
  rec.record(target, 'Normal', 'SuccessfulCreate', 'Created pod: no-token-left');
  const after = await eventually(async () => { const e = await listEvents(api.client); return e.length === 26 && e; }, 'one more event');
  assert.ok(after.some((e: any) => e.message === 'Created pod: after-5-minutes'));
  await new Promise(r => setTimeout(r, 200));
  assert.equal((await listEvents(api.client)).length, 26);
});
