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
