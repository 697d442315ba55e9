import { test } from 'node:test';
import assert from 'node:assert/strict';
import { restartBackoff } from '../../../../src/agent/pods/backoff.ts';
import { containerHash } from '../../../../src/agent/pods/container-hash.ts';
import { computePodActions } from '../../../../src/agent/pods/pod-actions.ts';
import type { Pod, RuntimeContainer, RuntimePod } from '../../../../src/agent/pods/types.ts';

const S = 1e9;
const pod = (spec: Partial<Pod['spec']> = {}): Pod => ({
  metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
  spec: { containers: [{ name: 'a', image: 'img:1' }], restartPolicy: 'Always', ...spec },
});
const rc = (name: string, state: RuntimeContainer['state'], extra: Partial<RuntimeContainer> = {}): RuntimeContainer => ({
  id: `${name}-${extra.restartCount ?? 0}`, sandboxId: 's1', name, attempt: 0, state, image: 'img:1', imageRef: 'sha256:x', createdAt: (extra.restartCount ?? 0) + 1, restartCount: 0, ...extra,
});
const rt = (containers: RuntimeContainer[], sandboxState: 'SANDBOX_READY' | 'SANDBOX_NOTREADY' = 'SANDBOX_READY'): RuntimePod => ({
  uid: 'u1', name: 'p', namespace: 'ns', sandboxes: [{ id: 's1', attempt: 0, state: sandboxState, createdAt: 1 }], containers,
});
const noBackoff = () => ({ inBackoff: false, delayMs: 0, remainingMs: 0 });
const run = (p: Pod, r: RuntimePod | undefined, extra: Partial<Parameters<typeof computePodActions>[0]> = {}) =>
  computePodActions({ pod: p, runtime: r, now: 100_000, backoff: noBackoff, probeFailures: new Map(), ...extra });

test('a new pod gets a sandbox and its first init container, or its containers when it has none', () => {
  const a = run(pod(), undefined);
  assert.equal(a.createSandbox, true);
  assert.equal(a.sandboxAttempt, 0);
  assert.deepEqual(a.start.map(s => s.container.name), ['a']);
  const b = run(pod({ initContainers: [{ name: 'i1', image: 'x' }, { name: 'i2', image: 'x' }] }), undefined);
  assert.deepEqual(b.start.map(s => [s.container.name, s.init]), [['i1', true]]);
});

test('init containers run one after another; a failure is retried unless the pod never restarts', () => {
  const p = pod({ initContainers: [{ name: 'i1', image: 'x' }, { name: 'i2', image: 'x' }] });
  assert.deepEqual(run(p, rt([rc('i1', 'CONTAINER_RUNNING')])).start, []);
  assert.deepEqual(run(p, rt([rc('i1', 'CONTAINER_EXITED', { exitCode: 0 })])).start.map(s => s.container.name), ['i2']);
  assert.deepEqual(run(p, rt([rc('i1', 'CONTAINER_EXITED', { exitCode: 0 }), rc('i2', 'CONTAINER_EXITED', { exitCode: 0 })])).start.map(s => s.container.name), ['a']);
  const retried = run(p, rt([rc('i1', 'CONTAINER_EXITED', { exitCode: 1 })]));
  assert.deepEqual(retried.start.map(s => [s.container.name, s.restartCount]), [['i1', 1]]);
  const never = run({ ...p, spec: { ...p.spec, restartPolicy: 'Never' } }, rt([rc('i1', 'CONTAINER_EXITED', { exitCode: 1 })]));
  assert.equal(never.initFailed, true);
  assert.equal(never.terminal, true);
});

test('exited containers restart per policy; Never and a clean OnFailure exit finish the pod', () => {
  const exited = (code: number) => rt([rc('a', 'CONTAINER_EXITED', { exitCode: code, finishedAt: 90 * S })]);
  assert.deepEqual(run(pod(), exited(0)).start.map(s => s.restartCount), [1]);
  assert.equal(run(pod({ restartPolicy: 'OnFailure' }), exited(0)).terminal, true);
  assert.deepEqual(run(pod({ restartPolicy: 'OnFailure' }), exited(2)).start.map(s => s.container.name), ['a']);
  assert.equal(run(pod({ restartPolicy: 'Never' }), exited(2)).terminal, true);
});

test('a restart inside its back-off waits as CrashLoopBackOff with the kubelet message', () => {
  const r = rt([rc('a', 'CONTAINER_EXITED', { exitCode: 1, finishedAt: 95 * S, restartCount: 2 })]);
  const a = run(pod(), r, { backoff: () => ({ inBackoff: true, delayMs: 20_000, remainingMs: 15_000 }) });
  assert.deepEqual(a.start, []);
  assert.deepEqual(a.waiting.get('a'), { reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=a pod=p_ns(u1)' });
  assert.equal(a.terminal, false);
});

test('a dead sandbox is replaced (the attempt counts up), except for a Never pod whose containers ran', () => {
  const r = rt([rc('a', 'CONTAINER_EXITED', { exitCode: 0 })], 'SANDBOX_NOTREADY');
  const a = run(pod(), r);
  assert.equal(a.createSandbox, true);
  assert.equal(a.killPod, true);
  assert.equal(a.sandboxAttempt, 1);
  assert.deepEqual(a.start.map(s => s.restartCount), [1]);
  const never = run(pod({ restartPolicy: 'Never' }), r);
  assert.equal(never.createSandbox, false);
  assert.equal(never.terminal, true);
});

test('liveness failures and spec changes stop a running container', () => {
  const p = pod();
  const hash = containerHash(p.spec.containers[0]!);
  const live = rt([rc('a', 'CONTAINER_RUNNING', { hash })]);
  assert.deepEqual(run(p, live).kill, []);
  assert.deepEqual(run(p, live, { probeFailures: new Map([['a', 'Container a failed liveness probe, will be restarted']]) }).kill.map(k => k.message), ['Container a failed liveness probe, will be restarted']);
  assert.deepEqual(run(p, rt([rc('a', 'CONTAINER_RUNNING', { hash: 'other' })])).kill.map(k => k.message), ['Container a definition changed, will be restarted']);
});

test('old exited instances beyond the newest two are pruned', () => {
  const r = rt([0, 1, 2, 3].map(n => rc('a', 'CONTAINER_EXITED', { exitCode: 1, restartCount: n })));
  assert.deepEqual(run(pod(), r).prune.sort(), ['a-0', 'a-1']);
});

test('back-off: first retry at once, then 10 s doubling to the cap, forgotten after twice the cap', () => {
  let now = 0;
  const b = restartBackoff(() => now, 10_000, 40_000);
  assert.equal(b.check('k', 0).inBackoff, false);
  b.next('k', 0);
  assert.deepEqual(b.check('k', 0), { inBackoff: true, delayMs: 10_000, remainingMs: 10_000 });
  now = 10_001;
  assert.equal(b.check('k', 0).inBackoff, false);
  b.next('k', now); b.next('k', now); b.next('k', now);
  assert.equal(b.check('k', now).delayMs, 40_000);
  now += 80_001;
  assert.equal(b.check('k', now).inBackoff, false);
});

test('a sidecar lets the next init container start only once it has started (its startup probe passed)', () => {
  const p = pod({ initContainers: [{ name: 'side', image: 'x', restartPolicy: 'Always', startupProbe: { exec: { command: ['true'] } } }, { name: 'i2', image: 'x' }] });
  const r = rt([rc('side', 'CONTAINER_RUNNING')]);
  assert.deepEqual(run(p, r, { started: new Map([['side', false]]) }).start, []);
  assert.deepEqual(run(p, r, { started: new Map([['side', true]]) }).start.map(s => s.container.name), ['i2']);
  // then the regular containers, with the sidecar still running beside them
  const after = run(p, rt([rc('side', 'CONTAINER_RUNNING'), rc('i2', 'CONTAINER_EXITED', { exitCode: 0 })]), { started: new Map([['side', true]]) });
  assert.deepEqual(after.start.map(s => s.container.name), ['a']);
});
