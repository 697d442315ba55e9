import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../../../src/api/log.ts';
import { diffSnapshots, startPleg } from '../../../../src/agent/pods/pleg.ts';
import type { RuntimeSnapshot } from '../../../../src/agent/pods/runtime-snapshot.ts';
import type { RuntimePod } from '../../../../src/agent/pods/types.ts';
import { fakeClock } from '../fake-clock.ts';

const snap = (pods: RuntimePod[]): RuntimeSnapshot => ({ pods: new Map(pods.map(p => [p.uid, p])), takenAt: 0 });
const podWith = (uid: string, containers: Array<[string, RuntimePod['containers'][0]['state']]>, sandbox: 'SANDBOX_READY' | 'SANDBOX_NOTREADY' = 'SANDBOX_READY'): RuntimePod => ({
  uid, name: uid, namespace: 'ns', sandboxes: [{ id: `sb-${uid}`, attempt: 0, state: sandbox, createdAt: 0 }],
  containers: containers.map(([id, state]) => ({ id, sandboxId: `sb-${uid}`, name: id, attempt: 0, state, image: '', imageRef: '', createdAt: 0, restartCount: 0 })),
});

test('relists become lifecycle events: started, died, removed, sandbox changes', () => {
  const a = snap([podWith('u1', [['c1', 'CONTAINER_CREATED'], ['c2', 'CONTAINER_RUNNING']])]);
  const b = snap([podWith('u1', [['c1', 'CONTAINER_RUNNING']], 'SANDBOX_NOTREADY'), podWith('u2', [['c3', 'CONTAINER_EXITED']])]);
  assert.deepEqual(diffSnapshots(a, b), [
    { uid: 'u1', type: 'SandboxChanged', id: 'sb-u1' },
    { uid: 'u1', type: 'ContainerStarted', id: 'c1' },
    { uid: 'u2', type: 'SandboxChanged', id: 'sb-u2' },
    { uid: 'u2', type: 'ContainerDied', id: 'c3' },
    { uid: 'u1', type: 'ContainerRemoved', id: 'c2' },
  ]);
  assert.deepEqual(diffSnapshots(b, b), []);
});

test('a relist that stalls for more than three minutes makes the PLEG unhealthy, worded as the kubelet words it', async () => {
  const clock = fakeClock();
  let calls = 0;
  let release: () => void = () => {};
  const reader = {
    latest: () => undefined,
    readPod: async () => undefined,
    async read(): Promise<RuntimeSnapshot> {
      calls++;
      if (calls > 1) await new Promise<void>(r => { release = r; });
      return snap([]);
    },
  };
  const events: unknown[] = [];
  const pleg = startPleg({ reader, clock, log: createLogger('error'), onEvents: e => events.push(e) });
  await new Promise(r => setImmediate(r));
  assert.equal(pleg.unhealthy(), undefined);
  await clock.advance(1000);
  assert.equal(calls, 2);
  await clock.advance(3 * 60_000 - 1000);
  assert.equal(pleg.unhealthy(), undefined);
  await clock.advance(13_500);
  assert.equal(pleg.unhealthy(), 'PLEG is not healthy: pleg was last seen active 3m13.5s ago; threshold is 3m0s');
  release();
  await new Promise(r => setImmediate(r));
  assert.equal(pleg.unhealthy(), undefined);
  pleg.stop();
});
