import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podStatus, type StatusInputs } from '../../../../src/agent/pods/pod-status.ts';
import type { Pod, RuntimeContainer, RuntimePod } from '../../../../src/agent/pods/types.ts';

const S = 1e9;
const T0 = Date.parse('2026-11-23T10:00:00Z');
const pod = (spec: Partial<Pod['spec']> = {}, status?: Record<string, unknown>): Pod => ({
  metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
  spec: { containers: [{ name: 'a', image: 'img:1' }], restartPolicy: 'Always', ...spec },
  ...(status ? { status } : {}),
});
const rc = (name: string, state: RuntimeContainer['state'], extra: Partial<RuntimeContainer> = {}): RuntimeContainer => ({
  id: `${name}${extra.restartCount ?? 0}`, sandboxId: 's1', name, attempt: 0, state, image: 'img:1', imageRef: 'sha256:abc', createdAt: (extra.restartCount ?? 0) + 1, restartCount: 0, startedAt: (T0 / 1000) * S, ...extra,
});
const rt = (containers: RuntimeContainer[], ready = true): RuntimePod => ({
  uid: 'u1', name: 'p', namespace: 'ns', sandboxes: [{ id: 's1', attempt: 0, state: ready ? 'SANDBOX_READY' : 'SANDBOX_NOTREADY', createdAt: 1, ip: '10.1.0.5' }], containers,
});
// the status as the JSON the agent writes, read by path as a client would
const status = (p: Pod, r: RuntimePod | undefined, extra: Partial<StatusInputs> = {}): any =>
  podStatus({ pod: p, runtime: r, waiting: new Map(), ready: new Map(), started: new Map(), initFailed: false, nodeIPs: ['192.168.1.2'], runtimeName: 'containerd', now: T0 + 5000, ...extra });
const cond = (s: any, type: string) => s.conditions.find((c: any) => c.type === type);

test('a pod being created is Pending with its containers waiting in ContainerCreating', () => {
  const s = status(pod(), undefined);
  assert.equal(s.phase, 'Pending');
  assert.deepEqual(s.containerStatuses[0].state, { waiting: { reason: 'ContainerCreating' } });
  assert.equal(cond(s, 'PodReadyToStartContainers').status, 'False');
  assert.equal(cond(s, 'PodScheduled').status, 'True');
  assert.equal(s.hostIP, '192.168.1.2');
  assert.equal(s.podIP, undefined);
});

test('a running pod: phase, IPs, container status, readiness from the probe', () => {
  const p = pod({ containers: [{ name: 'a', image: 'img:1', readinessProbe: { exec: { command: ['true'] } } }] });
  const r = rt([rc('a', 'CONTAINER_RUNNING')]);
  const notYet = status(p, r);
  assert.equal(notYet.phase, 'Running');
  assert.deepEqual(notYet.podIPs, [{ ip: '10.1.0.5' }]);
  assert.equal(notYet.containerStatuses[0].ready, false);
  assert.equal(cond(notYet, 'Ready').status, 'False');
  assert.equal(cond(notYet, 'Ready').reason, 'ContainersNotReady');
  assert.equal(cond(notYet, 'Ready').message, 'containers with unready status: [a]');
  const ready = status(p, r, { ready: new Map([['a', true]]) });
  assert.equal(cond(ready, 'Ready').status, 'True');
  assert.deepEqual(ready.containerStatuses[0], {
    name: 'a', image: 'img:1', imageID: 'sha256:abc', restartCount: 0, containerID: 'containerd://a0',
    state: { running: { startedAt: '2026-11-23T10:00:00Z' } }, lastState: {}, ready: true, started: true,
  });
});

test('a container in back-off waits with CrashLoopBackOff and shows the last termination', () => {
  const r = rt([rc('a', 'CONTAINER_EXITED', { exitCode: 2, restartCount: 3, finishedAt: (T0 / 1000 + 1) * S })]);
  const s = status(pod(), r, { waiting: new Map([['a', { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=a pod=p_ns(u1)' }]]) });
  const c = s.containerStatuses[0];
  assert.equal(s.phase, 'Running');
  assert.equal(c.state.waiting.reason, 'CrashLoopBackOff');
  assert.equal(c.lastState.terminated.exitCode, 2);
  assert.equal(c.lastState.terminated.reason, 'Error');
  assert.equal(c.restartCount, 3);
});

test('finished pods: Succeeded when every container exited 0 and none restarts, Failed otherwise', () => {
  const ok = status(pod({ restartPolicy: 'OnFailure' }), rt([rc('a', 'CONTAINER_EXITED', { exitCode: 0 })], false));
  assert.equal(ok.phase, 'Succeeded');
  assert.equal(ok.containerStatuses[0].state.terminated.reason, 'Completed');
  assert.equal(cond(ok, 'Ready').reason, 'PodCompleted');
  assert.equal(ok.podIP, undefined);
  const bad = status(pod({ restartPolicy: 'Never' }), rt([rc('a', 'CONTAINER_EXITED', { exitCode: 1 })]));
  assert.equal(bad.phase, 'Failed');
  // being deleted: an Always pod whose containers were stopped is finished too
  const stopped = status(pod(), rt([rc('a', 'CONTAINER_EXITED', { exitCode: 143 })], false), { terminating: true });
  assert.equal(stopped.phase, 'Failed');
});

test('init containers: Initialized false with the incomplete names, regular containers PodInitializing', () => {
  const p = pod({ initContainers: [{ name: 'i1', image: 'x' }, { name: 'i2', image: 'x' }] });
  const s = status(p, rt([rc('i1', 'CONTAINER_EXITED', { exitCode: 0 }), rc('i2', 'CONTAINER_RUNNING')]));
  assert.equal(s.phase, 'Pending');
  assert.equal(cond(s, 'Initialized').status, 'False');
  assert.equal(cond(s, 'Initialized').message, 'containers with incomplete status: [i2]');
  assert.equal(s.containerStatuses[0].state.waiting.reason, 'PodInitializing');
  assert.equal(s.initContainerStatuses[0].state.terminated.exitCode, 0);
  const failed = status({ ...p, spec: { ...p.spec, restartPolicy: 'Never' } }, rt([rc('i1', 'CONTAINER_EXITED', { exitCode: 1 })]), { initFailed: true });
  assert.equal(failed.phase, 'Failed');
});

test('start errors show as the waiting reason; transition times and startTime are kept', () => {
  const s = status(pod(), rt([]), { waiting: new Map([['a', { reason: 'ErrImagePull', message: 'Failed to pull image "img:1": not found' }]]) });
  assert.deepEqual(s.containerStatuses[0].state.waiting, { reason: 'ErrImagePull', message: 'Failed to pull image "img:1": not found' });
  const before = { startTime: '2026-11-23T09:00:00Z', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-11-23T09:00:01Z' }, { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-11-23T08:59:00Z' }] };
  const again = status(pod({}, before), rt([]));
  assert.equal(again.startTime, '2026-11-23T09:00:00Z');
  assert.equal(cond(again, 'Ready').lastTransitionTime, '2026-11-23T09:00:01Z');
  assert.equal(cond(again, 'PodScheduled').lastTransitionTime, '2026-11-23T08:59:00Z');
  assert.equal(cond(again, 'Initialized').lastTransitionTime, '2026-11-23T10:00:05Z');
});

test('a terminal phase never changes again: with nothing left in the runtime the finished status stays', () => {
  const finished = { phase: 'Succeeded', conditions: [{ type: 'Ready', status: 'False', reason: 'PodCompleted' }], containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] };
  for (const phase of ['Succeeded', 'Failed']) {
    const prev = { ...finished, phase };
    const out = podStatus({ pod: { metadata: { name: 'p', namespace: 'default', uid: 'u' }, spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' }, status: prev } as never, runtime: undefined, waiting: new Map(), ready: () => false, started: () => false, initFailed: false, terminating: true, nodeIPs: [], runtimeName: 'containerd', now: 0 } as never);
    assert.deepEqual(out, prev, phase);
  }
});

test('readiness gates: Ready only when every gate\'s condition is True, worded as the kubelet words it', () => {
  const spec = { readinessGates: [{ conditionType: 'example.com/lb' }, { conditionType: 'example.com/dns' }] };
  const r = rt([rc('a', 'CONTAINER_RUNNING')]);
  const none = status(pod(spec), r);
  assert.deepEqual([cond(none, 'Ready').status, cond(none, 'Ready').reason, cond(none, 'Ready').message], ['False', 'ReadinessGatesNotReady',
    'corresponding condition of pod readiness gate "example.com/lb" does not exist., corresponding condition of pod readiness gate "example.com/dns" does not exist.']);
  assert.equal(cond(none, 'ContainersReady').status, 'True');
  const half = status(pod(spec, { conditions: [{ type: 'example.com/lb', status: 'True' }, { type: 'example.com/dns', status: 'False' }] }), r);
  assert.equal(cond(half, 'Ready').message, 'the status of pod readiness gate "example.com/dns" is not "True", but False');
  assert.equal(cond(half, 'example.com/lb').status, 'True', 'the gates\' conditions stay as their writers set them');
  const all = status(pod(spec, { conditions: [{ type: 'example.com/lb', status: 'True' }, { type: 'example.com/dns', status: 'True' }] }), r);
  assert.equal(cond(all, 'Ready').status, 'True');
});
