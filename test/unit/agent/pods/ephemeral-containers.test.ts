// The agent's decisions about ephemeral containers: which to start (once, never again), the
// process namespace a target gives, and the status reported for them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ephemeralPidNamespace, ephemeralToStart } from '../../../../src/agent/pods/ephemeral-containers.ts';
import { containerConfig } from '../../../../src/agent/pods/cri-config.ts';
import { podStatus } from '../../../../src/agent/pods/pod-status.ts';
import type { Pod, RuntimeContainer, RuntimePod } from '../../../../src/agent/pods/types.ts';

const S = 1e9;
const T0 = Date.parse('2026-11-23T10:00:00Z');
const pod = (spec: Partial<Pod['spec']> = {}, meta: Partial<Pod['metadata']> = {}): Pod => ({
  metadata: { name: 'p', namespace: 'ns', uid: 'u1', ...meta },
  spec: { containers: [{ name: 'app', image: 'img:1' }], restartPolicy: 'Always', ...spec },
});
const rc = (name: string, state: RuntimeContainer['state'], extra: Partial<RuntimeContainer> = {}): RuntimeContainer => ({
  id: `${name}-id`, sandboxId: 's1', name, attempt: 0, state, image: 'img:1', imageRef: 'sha256:abc', createdAt: 1, restartCount: 0, startedAt: (T0 / 1000) * S, ...extra,
});
const rt = (containers: RuntimeContainer[]): RuntimePod => ({ uid: 'u1', name: 'p', namespace: 'ns', sandboxes: [{ id: 's1', attempt: 0, state: 'SANDBOX_READY', createdAt: 1, ip: '10.1.0.5' }], containers });
const dbg = { name: 'dbg', image: 'busybox', command: ['sleep', '3600'], targetContainerName: 'app' };

test('an ephemeral container starts once in the ready sandbox, joined to its target', () => {
  const p = pod({ ephemeralContainers: [dbg, { name: 'plain', image: 'busybox' }] });
  const starts = ephemeralToStart(p, rt([rc('app', 'CONTAINER_RUNNING')]), 's1');
  assert.deepEqual(starts.map(s => [s.container.name, s.targetId]), [['dbg', 'app-id'], ['plain', undefined]]);
  assert.equal('targetContainerName' in starts[0]!.container, false, 'the container config carries no target field');
  // the runtime has had it (running or exited): never again, in this sandbox or another
  assert.deepEqual(ephemeralToStart(p, rt([rc('app', 'CONTAINER_RUNNING'), rc('dbg', 'CONTAINER_EXITED', { exitCode: 1 }), rc('plain', 'CONTAINER_RUNNING', { sandboxId: 'old' })]), 's1'), []);
  // no sandbox yet, or the pod is going away: nothing
  assert.deepEqual(ephemeralToStart(p, undefined, undefined), []);
  assert.deepEqual(ephemeralToStart(pod({ ephemeralContainers: [dbg] }, { deletionTimestamp: '2026-11-23T10:00:00Z' }), rt([]), 's1'), []);
  // a target not started yet (init containers still running): it starts without one and the runtime decides
  assert.deepEqual(ephemeralToStart(pod({ ephemeralContainers: [dbg] }), rt([]), 's1').map(s => s.targetId), [undefined]);
});

test('the target\'s process namespace only when the pod has none shared; the CRI config says TARGET', () => {
  assert.deepEqual(ephemeralPidNamespace('CONTAINER', 'x'), { pid: 'TARGET', targetId: 'x' });
  assert.deepEqual(ephemeralPidNamespace('POD', 'x'), { pid: 'POD' });
  assert.deepEqual(ephemeralPidNamespace('NODE', 'x'), { pid: 'NODE' });
  assert.deepEqual(ephemeralPidNamespace('CONTAINER', undefined), { pid: 'CONTAINER' });
  const cfg = containerConfig({ pod: pod(), container: { name: 'dbg', image: 'busybox' }, restartCount: 0, envs: [], mounts: [], pidTarget: 'app-id' });
  assert.deepEqual(cfg.linux?.securityContext?.namespaceOptions, { network: 'POD', pid: 'TARGET', targetId: 'app-id', ipc: 'POD' });
  const host = containerConfig({ pod: pod({ hostPID: true, hostNetwork: true, hostIPC: true }), container: { name: 'c', image: 'busybox' }, restartCount: 0, envs: [], mounts: [] });
  assert.deepEqual(host.linux?.securityContext?.namespaceOptions, { network: 'NODE', pid: 'NODE', ipc: 'NODE' });
});

test('ephemeralContainerStatuses: running, then terminated, never ready, without started or resources', () => {
  const p = pod({ ephemeralContainers: [dbg] });
  const base = { waiting: new Map(), ready: new Map(), started: new Map(), initFailed: false, nodeIPs: ['192.168.1.2'], runtimeName: 'containerd', now: T0 + 5000 };
  const waiting = podStatus({ ...base, pod: p, runtime: rt([rc('app', 'CONTAINER_RUNNING')]) }) as any;
  assert.deepEqual(waiting.ephemeralContainerStatuses, [{ name: 'dbg', image: 'busybox', imageID: '', restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } }, lastState: {}, ready: false }]);
  const running = podStatus({ ...base, pod: p, runtime: rt([rc('app', 'CONTAINER_RUNNING'), rc('dbg', 'CONTAINER_RUNNING')]) }) as any;
  assert.deepEqual(running.ephemeralContainerStatuses, [{
    name: 'dbg', image: 'busybox', imageID: 'sha256:abc', restartCount: 0, containerID: 'containerd://dbg-id', state: { running: { startedAt: '2026-11-23T10:00:00Z' } }, lastState: {}, ready: false,
  }]);
  assert.equal(running.phase, 'Running');
  const done = podStatus({ ...base, pod: p, runtime: rt([rc('app', 'CONTAINER_RUNNING'), rc('dbg', 'CONTAINER_EXITED', { exitCode: 0, finishedAt: (T0 / 1000 + 3) * S })]) }) as any;
  assert.equal(done.ephemeralContainerStatuses[0].state.terminated.reason, 'Completed');
  // an ephemeral container's end changes neither the phase nor readiness
  assert.equal(done.phase, 'Running');
  assert.equal(done.conditions.find((c: any) => c.type === 'ContainersReady').status, 'True');
  const pulling = podStatus({ ...base, pod: p, runtime: rt([rc('app', 'CONTAINER_RUNNING')]), waiting: new Map([['dbg', { reason: 'ErrImagePull', message: 'no such image' }]]) }) as any;
  assert.deepEqual(pulling.ephemeralContainerStatuses[0].state, { waiting: { reason: 'ErrImagePull', message: 'no such image' } });
  assert.equal(podStatus({ ...base, pod: pod(), runtime: rt([]) }).ephemeralContainerStatuses, undefined);
  // one that ran in a sandbox since replaced stays terminated (it is never started again)
  const before = podStatus({ ...base, pod: p, runtime: rt([rc('app', 'CONTAINER_RUNNING'), rc('dbg', 'CONTAINER_EXITED', { sandboxId: 'old', exitCode: 137, finishedAt: (T0 / 1000) * S })]) }) as any;
  assert.equal(before.ephemeralContainerStatuses[0].state.terminated.exitCode, 137);
});
