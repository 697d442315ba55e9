import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/api/log.ts';
import { ApiError } from '../../../src/client/api-error.ts';
import type { Client } from '../../../src/client/rest.ts';
import type { ObservedCondition } from '../../../src/agent/node-status/conditions.ts';
import { startStatusReporter } from '../../../src/agent/node-status/status-reporter.ts';
import { fakeClock } from './fake-clock.ts';

const notFound = () => new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 404, reason: 'NotFound', message: 'not found' });
const exists = () => new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 409, reason: 'AlreadyExists', message: 'exists' });

function nodeApi(initial?: any) {
  let stored: any = initial;
  let rv = 1;
  const statusWrites: any[] = [];
  const client: Partial<Client> = {
    get: async () => { if (!stored) throw notFound(); return structuredClone(stored); },
    create: async (_p, body: any) => { if (stored) throw exists(); stored = { ...body, metadata: { ...body.metadata, uid: 'uid-new', resourceVersion: String(rv++) } }; return structuredClone(stored); },
    update: async (path: string, body: any) => {
      stored = { ...body, metadata: { ...body.metadata, resourceVersion: String(rv++) } };
      if (path.endsWith('/status')) statusWrites.push(structuredClone(body.status));
      return structuredClone(stored);
    },
  };
  return { client: client as Client, statusWrites, stored: () => stored };
}

const ready = (status: 'True' | 'False'): ObservedCondition[] => [{ type: 'Ready', status, reason: status === 'True' ? 'KubeletReady' : 'KubeletNotReady', message: '' }];

test('status is written on change, or after the report frequency; heartbeats alone do not count', async () => {
  const clock = fakeClock();
  const api = nodeApi();
  let conditions = ready('True');
  const reporter = startStatusReporter({
    client: api.client, node: { metadata: { name: 'n1', labels: { a: '1' } } },
    observe: async () => ({ status: { capacity: { cpu: '2' } }, conditions }),
    updateFrequencyMs: 10_000, reportFrequencyMs: 300_000, clock, log: silentLogger,
  });
  await reporter.registered;
  await clock.advance(1);
  assert.equal(api.statusWrites.length, 1, 'first report');
  await clock.advance(60_000);
  assert.equal(api.statusWrites.length, 1, 'nothing changed: no writes');
  conditions = ready('False');
  await clock.advance(10_000);
  assert.equal(api.statusWrites.length, 2, 'a change is written at the next update');
  const cond = api.statusWrites[1].conditions[0];
  assert.equal(cond.lastTransitionTime, cond.lastHeartbeatTime);
  await clock.advance(300_000);
  assert.equal(api.statusWrites.length, 3, 'unchanged, but the report frequency passed');
  assert.equal(api.statusWrites[2].conditions[0].lastTransitionTime, cond.lastTransitionTime);
  reporter.stop();
});

test('an existing node is taken over: our labels win, others and its uid stay', async () => {
  const clock = fakeClock();
  const api = nodeApi({ metadata: { name: 'n1', uid: 'uid-old', resourceVersion: '7', labels: { a: 'old', keep: 'me' } }, spec: { unschedulable: true } });
  const reporter = startStatusReporter({
    client: api.client, node: { metadata: { name: 'n1', labels: { a: '1' } } },
    observe: async () => ({ status: {}, conditions: ready('True') }), updateFrequencyMs: 10_000, reportFrequencyMs: 300_000, clock, log: silentLogger,
  });
  await reporter.registered;
  assert.equal(reporter.uid(), 'uid-old');
  assert.deepEqual(api.stored().metadata.labels, { a: '1', keep: 'me' });
  assert.equal(api.stored().spec.unschedulable, true);
  reporter.stop();
});
