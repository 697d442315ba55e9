// A pod on a simulated node, on a fake clock and a fake API: its programs decide its status
// (exits, restarts held back as the kubelet holds them), and deletion stops its containers
// within the grace period before the pod is removed with its uid as precondition.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/api/log.ts';
import type { Client } from '../../../src/client/rest.ts';
import { restartBackoff } from '../../../src/agent/pods/backoff.ts';
import { startProber } from '../../../src/agent/pods/prober.ts';
import { startStatusManager } from '../../../src/agent/pods/status-manager.ts';
import type { Pod } from '../../../src/agent/pods/types.ts';
import { ImageStore } from '../../../src/runtime-sim/images.ts';
import { SimPod, type SimPodContext } from '../../../src/sim-nodes/sim-pod.ts';
import { fakeClock } from '../agent/fake-clock.ts';

function fakeApi() {
  const statuses: any[] = [];
  const deletes: Array<{ path: string; options: any }> = [];
  const client: Partial<Client> = {
    patch: async (_path: string, body: any) => { statuses.push(structuredClone(body.status)); return {} as any; },
    delete: async (path: string, options: any) => { deletes.push({ path, options }); return {} as any; },
  };
  return { client: client as Client, statuses, deletes };
}

function setUp(pod: Pod) {
  const clock = fakeClock();
  const api = fakeApi();
  let ids = 0;
  let sim: SimPod | undefined;
  const ctx: SimPodContext = {
    client: api.client, clock, log: silentLogger,
    images: new ImageStore({ clock, pullDelayMs: 0, unpullable: [], preloaded: [] }),
    backoff: restartBackoff(() => clock.now()),
    statuses: startStatusManager(api.client, silentLogger),
    prober: startProber({ clock, wake: () => sim?.wake(), event: () => {}, check: async () => ({ ok: true, output: '' }) }),
    newId: () => String(++ids).padStart(64, '0'),
  };
  let released = 0;
  sim = new SimPod(pod, ctx, '172.16.0.1', '10.128.0.2', () => { released++; });
  return { clock, api, sim, released: () => released };
}

const pod = (spec: object, extra: object = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u1', ...extra },
  spec: { nodeName: 'sim-node-0', containers: [], ...spec },
} as Pod);

const last = (statuses: any[]) => statuses.at(-1);

test('a container whose program exits 1 is restarted once at once, then held back 10 s', async () => {
  const { clock, api, sim } = setUp(pod({ containers: [{ name: 'c', image: 'registry.local/app:1.0', command: ['sh', '-c', 'sleep 2; exit 1'] }] }));
  sim.wake();
  await clock.advance(1000);
  let s = last(api.statuses);
  assert.equal(s.phase, 'Running');
  assert.equal(s.podIP, '10.128.0.2');
  assert.equal(s.hostIP, '172.16.0.1');
  assert.ok(s.containerStatuses[0].state.running);
  // exits at 2 s, restarted at once; the second exit (4 s) waits out 10 s of back-off
  await clock.advance(4000);
  s = last(api.statuses);
  const cs = s.containerStatuses[0];
  assert.equal(cs.restartCount, 1);
  assert.equal(cs.state.waiting.reason, 'CrashLoopBackOff');
  assert.equal(cs.state.waiting.message, 'back-off 10s restarting failed container=c pod=p_default(u1)');
  assert.equal(cs.lastState.terminated.exitCode, 1);
  assert.equal(cs.lastState.terminated.reason, 'Error');
  await clock.advance(10_500);
  assert.equal(last(api.statuses).containerStatuses[0].restartCount, 2);
  assert.ok(last(api.statuses).containerStatuses[0].state.running);
});

test('a pod that is never restarted ends Succeeded when its program exits 0', async () => {
  const { clock, api, sim } = setUp(pod({ restartPolicy: 'Never', containers: [{ name: 'c', image: 'registry.local/app:1.0', command: ['sh', '-c', 'sleep 3'] }] }));
  sim.wake();
  await clock.advance(5000);
  const s = last(api.statuses);
  assert.equal(s.phase, 'Succeeded');
  assert.equal(s.containerStatuses[0].state.terminated.reason, 'Completed');
});

test('deletion: SIGTERM, the kill after the grace period, the final status, then the pod removed with its uid', async () => {
  const running = pod({ terminationGracePeriodSeconds: 5, containers: [{ name: 'c', image: 'registry.local/app:1.0', command: ['sh', '-c', "trap '' TERM; sleep 3600"] }] });
  const { clock, api, sim, released } = setUp(running);
  sim.wake();
  await clock.advance(1000);
  sim.update({ ...running, metadata: { ...running.metadata, deletionTimestamp: '2026-11-22T10:00:01Z', deletionGracePeriodSeconds: 5 } } as Pod);
  await clock.advance(4000);
  assert.equal(api.deletes.length, 0, 'the container ignoring SIGTERM runs out its grace period');
  await clock.advance(2000);
  assert.deepEqual(api.deletes, [{ path: '/api/v1/namespaces/default/pods/p', options: { gracePeriodSeconds: 0, preconditions: { uid: 'u1' } } }]);
  assert.equal(last(api.statuses).containerStatuses[0].state.terminated.exitCode, 137);
  assert.equal(released(), 1, 'its address is given back');
});
