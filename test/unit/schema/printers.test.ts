import { test } from 'node:test';
import assert from 'node:assert/strict';
import { printerFor } from '../../../src/schema/printers/index.ts';
import { age, humanDuration } from '../../../src/schema/printers/format.ts';
import type { KubeObject } from '../../../src/api/object.ts';

const now = new Date('2026-01-01T01:00:00Z');
const meta = (name: string, extra: object = {}) => ({ name, namespace: 'd', uid: 'u', creationTimestamp: '2026-01-01T00:55:00Z', ...extra });

function pod(status: object, extra: Record<string, unknown> = {}): KubeObject {
  return { metadata: meta('p'), spec: { containers: [{ name: 'c', image: 'i' }] }, status, ...extra } as KubeObject;
}
const pods = printerFor('', 'pods');
const row = (p: KubeObject) => pods.cells(p, now);
const statusCell = (p: KubeObject) => row(p)[2];
const running = (name = 'c', extra: object = {}) => ({ name, ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:56:00Z' } }, ...extra });

test('ages as Kubernetes prints them', () => {
  const s = 1000, m = 60 * s, h = 60 * m, d = 24 * h;
  const cases: Array<[number, string]> = [
    [0, '0s'], [5 * s, '5s'], [119 * s, '119s'], [2 * m, '2m'], [125 * s, '2m5s'], [3 * m + 2 * s, '3m2s'], [10 * m, '10m'], [179 * m, '179m'],
    [3 * h, '3h'], [5 * h + 30 * m, '5h30m'], [8 * h, '8h'], [20 * h, '20h'], [47 * h, '47h'], [2 * d, '2d'], [2 * d + 3 * h, '2d3h'],
    [8 * d, '8d'], [400 * d, '400d'], [730 * d, '2y'], [800 * d, '2y70d'], [3000 * d, '8y'], [-1500, '0s'], [-5 * s, '<invalid>'],
  ];
  for (const [ms, want] of cases) assert.equal(humanDuration(ms), want, `${ms}ms`);
  assert.equal(age(undefined, now), '<unknown>');
  assert.equal(age('not a time', now), '<unknown>');
  assert.equal(age('2026-01-01T00:59:30Z', now), '30s');
});

test('pod columns: Name, Ready, Status, Restarts, Age, then the wide ones', () => {
  assert.deepEqual(pods.columns.map(c => [c.name, c.type, c.format, c.priority]), [
    ['Name', 'string', 'name', 0], ['Ready', 'string', '', 0], ['Status', 'string', '', 0], ['Restarts', 'string', '', 0], ['Age', 'string', '', 0],
    ['IP', 'string', '', 1], ['Node', 'string', '', 1], ['Nominated Node', 'string', '', 1], ['Readiness Gates', 'string', '', 1],
  ]);
});

test('pod STATUS in each common state', () => {
  assert.equal(statusCell(pod({ phase: 'Pending' })), 'Pending');
  assert.equal(statusCell(pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] })), 'SchedulingGated');
  assert.equal(statusCell(pod({ phase: 'Pending', containerStatuses: [{ name: 'c', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }] })), 'ContainerCreating');
  assert.equal(statusCell(pod({ phase: 'Running', containerStatuses: [running()] })), 'Running');
  assert.equal(statusCell(pod({ phase: 'Running', containerStatuses: [{ name: 'c', restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } }] })), 'CrashLoopBackOff');
  assert.equal(statusCell(pod({ phase: 'Succeeded', containerStatuses: [{ name: 'c', state: { terminated: { reason: 'Completed', exitCode: 0 } } }] })), 'Completed');
  assert.equal(statusCell(pod({ phase: 'Failed', containerStatuses: [{ name: 'c', state: { terminated: { reason: 'Error', exitCode: 1 } } }] })), 'Error');
  assert.equal(statusCell(pod({ phase: 'Failed', containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 137, signal: 9 } } }] })), 'Signal:9');
  assert.equal(statusCell(pod({ phase: 'Failed', containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 2 } } }] })), 'ExitCode:2');
  assert.equal(statusCell(pod({ phase: 'Failed', reason: 'Evicted' })), 'Evicted');
});

test('pod STATUS while init containers run', () => {
  const spec = { initContainers: [{ name: 'i1' }, { name: 'i2' }], containers: [{ name: 'c' }] };
  const init = (statuses: object[]) => pod({ phase: 'Pending', initContainerStatuses: statuses }, { spec });
  assert.equal(statusCell(init([{ name: 'i1', state: { waiting: { reason: 'PodInitializing' } } }, { name: 'i2', state: { waiting: {} } }])), 'Init:0/2');
  assert.equal(statusCell(init([{ name: 'i1', state: { terminated: { exitCode: 0, reason: 'Completed' } } }, { name: 'i2', state: { running: {} } }])), 'Init:1/2');
  assert.equal(statusCell(init([{ name: 'i1', state: { terminated: { exitCode: 1, reason: 'Error' } } }])), 'Init:Error');
  assert.equal(statusCell(init([{ name: 'i1', restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } } }])), 'Init:CrashLoopBackOff');
  assert.equal(statusCell(init([{ name: 'i1', state: { terminated: { exitCode: 3 } } }])), 'Init:ExitCode:3');
  const one = pod({ phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { waiting: { reason: 'PodInitializing' } } }] }, { spec: { initContainers: [{ name: 'i' }], containers: [{ name: 'c' }] } });
  assert.equal(statusCell(one), 'Init:0/1');
});

test('sidecar (restartable init) containers count toward Ready once started', () => {
  const p = pod({
    phase: 'Running', conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'True' }],
    initContainerStatuses: [{ name: 'side', started: true, ready: true, restartCount: 1, state: { running: {} }, lastState: { terminated: { finishedAt: '2026-01-01T00:57:00Z' } } }],
    containerStatuses: [running()],
  }, { spec: { initContainers: [{ name: 'side', restartPolicy: 'Always' }], containers: [{ name: 'c' }] } });
  assert.deepEqual(row(p).slice(1, 4), ['2/2', 'Running', '1 (3m ago)']);
});

test('Terminating while a running pod is deleted; not for finished pods; Unknown on a lost node', () => {
  const deleting = meta('p', { deletionTimestamp: '2026-01-01T01:00:00Z' });
  assert.equal(statusCell(pod({ phase: 'Running', containerStatuses: [running()] }, { metadata: deleting })), 'Terminating');
  assert.equal(statusCell(pod({ phase: 'Succeeded', containerStatuses: [{ name: 'c', state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }, { metadata: deleting })), 'Completed');
  assert.equal(statusCell(pod({ phase: 'Running', reason: 'NodeLost' }, { metadata: deleting })), 'Unknown');
});

test('Completed with a container still running reads Running or NotReady', () => {
  const spec = { containers: [{ name: 'a' }, { name: 'b' }] };
  const statuses = [running('a'), { name: 'b', state: { terminated: { reason: 'Completed', exitCode: 0 } } }];
  assert.equal(statusCell(pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: statuses }, { spec })), 'Running');
  assert.equal(statusCell(pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }], containerStatuses: statuses }, { spec })), 'NotReady');
});

test('pod row: ready count, restarts with the age of the last one, wide columns', () => {
  const p = pod({ phase: 'Running', podIP: '10.0.0.5', podIPs: [{ ip: '10.0.0.5' }], nominatedNodeName: 'n2', conditions: [{ type: 'gate/x', status: 'True' }], containerStatuses: [running('c', { restartCount: 2, lastState: { terminated: { finishedAt: '2026-01-01T00:58:00Z' } } })] },
    { spec: { nodeName: 'n1', containers: [{ name: 'c' }, { name: 'd' }], readinessGates: [{ conditionType: 'gate/x' }, { conditionType: 'gate/y' }] } });
  assert.deepEqual(row(p), ['p', '1/2', 'Running', '2 (2m ago)', '5m', '10.0.0.5', 'n1', 'n2', '1/2']);
  assert.deepEqual(row(pod({ phase: 'Pending' })), ['p', '0/1', 'Pending', '0', '5m', '<none>', '<none>', '<none>', '<none>']);
  // restarts without a known end time show no age
  assert.equal(row(pod({ phase: 'Running', containerStatuses: [running('c', { restartCount: 1 })] }))[3], '1');
});
