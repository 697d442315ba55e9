import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startPodWorkers } from '../../../../src/agent/pods/pod-workers.ts';
import type { PodSyncer } from '../../../../src/agent/pods/pod-syncer.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';
import { realClock } from '../../../../src/api/clock.ts';
import { createLogger } from '../../../../src/api/log.ts';

const pod = (meta: Partial<Pod['metadata']> = {}): Pod => ({ metadata: { name: 'p', namespace: 'ns', uid: 'u', ...meta }, spec: { containers: [{ name: 'c' }], terminationGracePeriodSeconds: 30 } });

test('a second delete with a shorter grace period shortens the termination under way; a longer one does not', async () => {
  const calls: string[] = [];
  let finish!: () => void;
  const stopping = new Promise<void>(r => { finish = r; });
  const syncer: PodSyncer = {
    syncPod: async () => ({ terminal: false }),
    syncTerminatingPod: async (_p, grace) => { calls.push(`terminating ${grace}`); await stopping; },
    shortenTermination: async (_p, grace) => { calls.push(`shorten ${grace}`); },
    syncTerminatedPod: async () => { calls.push('terminated'); },
    failPod: () => undefined,
  };
  const workers = startPodWorkers({ syncer, clock: realClock, log: createLogger('error', () => undefined) });
  const deleted = (grace: number) => pod({ deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: grace });
  workers.update(deleted(60));
  await new Promise(r => setImmediate(r));
  workers.update(deleted(90));
  workers.update(deleted(5));
  workers.update(deleted(5));
  workers.update(deleted(1));
  finish();
  await workers.idle();
  assert.deepEqual(calls, ['terminating 60', 'shorten 5', 'shorten 1', 'terminated']);
  workers.stop();
});
