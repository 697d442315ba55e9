import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedResources, resizeActions } from '../../../../src/agent/pods/resize-actions.ts';
import { podStatus } from '../../../../src/agent/pods/pod-status.ts';
import type { Container, Pod, RuntimeContainer } from '../../../../src/agent/pods/types.ts';

const pod = (containers: Container[], initContainers: Container[] = []): Pod => ({ metadata: { name: 'p', namespace: 'ns', uid: 'u' }, spec: { containers, initContainers } });
const running = (name: string): RuntimeContainer => ({ id: `${name}-id`, sandboxId: 's', name, attempt: 0, state: 'CONTAINER_RUNNING', image: 'i', imageRef: 'i', createdAt: 1, startedAt: 1e9, restartCount: 0 });
const res = (cpu: string, mem: string) => ({ requests: { cpu, memory: mem }, limits: { cpu, memory: mem } });

test('changed CPU and memory are compared as quantities; other resources are not resized', () => {
  assert.deepEqual(changedResources(res('100m', '64Mi'), res('0.1', '67108864')), []);
  assert.deepEqual(changedResources(res('200m', '64Mi'), res('100m', '64Mi')), ['cpu']);
  assert.deepEqual(changedResources({ requests: { cpu: '1' } }, { requests: { cpu: '1' }, limits: { memory: '1Gi' } }), ['memory']);
  assert.deepEqual(changedResources({ requests: { 'ephemeral-storage': '2Gi' } }, { requests: { 'ephemeral-storage': '1Gi' } }), []);
});

test('a resized running container is updated in place, or restarted when its resizePolicy says so for a changed resource', () => {
  const p = pod([
    { name: 'a', resources: res('200m', '64Mi') },
    { name: 'b', resources: res('100m', '128Mi'), resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] },
    { name: 'c', resources: res('300m', '64Mi'), resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] },
    { name: 'same', resources: res('1', '1Gi') },
  ], [{ name: 'side', restartPolicy: 'Always', resources: res('50m', '16Mi') }, { name: 'init', resources: res('2', '2Gi') }]);
  const had = { a: res('100m', '64Mi'), b: res('100m', '64Mi'), c: res('100m', '64Mi'), same: res('1', '1Gi'), side: res('10m', '16Mi'), init: res('1', '1Gi') };
  const out = resizeActions(p, ['a', 'b', 'c', 'same', 'side', 'init'].map(running), had);
  assert.deepEqual(out.update.map(u => [u.id, u.container.name]), [['side-id', 'side'], ['a-id', 'a'], ['c-id', 'c']]);
  assert.deepEqual(out.restart.map(r => [r.id, r.message]), [['b-id', 'Container b resize requires restart']]);
  // nothing recorded for a container (or none running): nothing to do
  assert.deepEqual(resizeActions(p, [], had), { update: [], restart: [] });
  assert.deepEqual(resizeActions(p, [running('a')], {}), { update: [], restart: [] });
});

test('the status shows what a running container was given and what it was allocated, and a failed resize as PodResizeInProgress', () => {
  const p = pod([{ name: 'a', image: 'i', resources: { requests: { cpu: '200m', 'ephemeral-storage': '1Gi' }, limits: { cpu: '400m' } } }]);
  const runtime = { uid: 'u', name: 'p', namespace: 'ns', sandboxes: [{ id: 's', attempt: 0, state: 'SANDBOX_READY' as const, createdAt: 1, ip: '10.0.0.2' }], containers: [running('a')] };
  const base = { pod: p, runtime, waiting: new Map(), ready: new Map(), started: new Map(), initFailed: false, nodeIPs: ['10.0.0.1'], runtimeName: 'containerd', now: 1_000_000 };
  const s = podStatus({ ...base, actuated: { a: { requests: { cpu: '100m', 'ephemeral-storage': '1Gi' }, limits: { cpu: '400m' } } } });
  const cs = s.containerStatuses![0]!;
  assert.deepEqual(cs.allocatedResources, { cpu: '200m', 'ephemeral-storage': '1Gi' });
  assert.deepEqual(cs.resources, { requests: { cpu: '100m' }, limits: { cpu: '400m' } });
  assert.equal(s.conditions!.some(c => c!.type === 'PodResizeInProgress'), false);
  const failed = podStatus({ ...base, resizeError: 'rpc error: code = Unknown desc = no' });
  const cond = failed.conditions!.find(c => c!.type === 'PodResizeInProgress')!;
  assert.deepEqual([cond.status, cond.reason, cond.message], ['True', 'Error', 'rpc error: code = Unknown desc = no']);
  // once the resize goes through, the condition goes
  const after = podStatus({ ...base, pod: { ...p, status: failed as Pod['status'] } });
  assert.equal(after.conditions!.some(c => c!.type === 'PodResizeInProgress'), false);
});

test('a resize beyond the node\'s allocatable is Infeasible in the kubelet\'s words; the status keeps the old allocation', async () => {
  const { infeasibleResize } = await import('../../../../src/agent/pods/resize-actions.ts');
  const p = pod([{ name: 'a', image: 'i', resources: { requests: { cpu: '3', memory: '1Gi' } } }, { name: 'b', image: 'i', resources: { requests: { cpu: '500m' } } }]);
  assert.equal(infeasibleResize(p, { cpuMilli: 4000, memoryBytes: 2 ** 31 }), undefined);
  assert.equal(infeasibleResize(p, { cpuMilli: 2000, memoryBytes: 2 ** 31 }), 'Node didn\'t have enough capacity: cpu, requested: 3500, capacity: 2000');
  assert.equal(infeasibleResize(p, { cpuMilli: 2000, memoryBytes: 2 ** 29 }), `Node didn't have enough capacity: memory, requested: ${2 ** 30}, capacity: ${2 ** 29}`);
  const runtime = { uid: 'u', name: 'p', namespace: 'ns', sandboxes: [{ id: 's', attempt: 0, state: 'SANDBOX_READY' as const, createdAt: 1 }], containers: [running('a')] };
  const s = podStatus({ pod: p, runtime, waiting: new Map(), ready: new Map(), started: new Map(), initFailed: false, nodeIPs: [], runtimeName: 'containerd', now: 1, actuated: { a: { requests: { cpu: '1', memory: '1Gi' } } }, resizePending: 'Node didn\'t have enough capacity: cpu, requested: 3500, capacity: 2000' });
  const cond = s.conditions!.find(c => c!.type === 'PodResizePending')!;
  assert.deepEqual([cond.status, cond.reason], ['True', 'Infeasible']);
  assert.deepEqual(s.containerStatuses![0]!.allocatedResources, { cpu: '1', memory: '1Gi' });
});
