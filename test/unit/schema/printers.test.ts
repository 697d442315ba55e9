import { test } from 'node:test';
import assert from 'node:assert/strict';
import { printerFor } from '../../../src/schema/printers/index.ts';
import { humanDuration } from '../../../src/schema/printers/format.ts';
import { toTable } from '../../../src/codec/table.ts';
import type { KubeObject } from '../../../src/api/object.ts';

const now = new Date('2026-01-01T01:00:00Z');
const meta = (name: string, extra: object = {}) => ({ name, namespace: 'd', uid: 'u', creationTimestamp: '2026-01-01T00:55:00Z', ...extra });

function pod(status: object, extra: Partial<KubeObject> = {}): KubeObject {
  return { metadata: meta('p'), spec: { containers: [{ name: 'c', image: 'i' }] }, status, ...extra } as KubeObject;
}

const statusCell = (p: KubeObject) => printerFor('', 'pods').cells(p, now)[2];

test('ages as kubectl prints them', () => {
  assert.deepEqual([5e3, 125e3, 600e3, 3 * 3600e3 + 120e3, 20 * 3600e3, 50 * 3600e3, 40 * 86400e3].map(humanDuration), ['5s', '2m5s', '10m', '3h2m', '20h', '2d2h', '40d']);
});

test('pod STATUS follows Kubernetes reasoning', () => {
  assert.equal(statusCell(pod({ phase: 'Pending' })), 'Pending');
  assert.equal(statusCell(pod({ phase: 'Pending', containerStatuses: [{ name: 'c', state: { waiting: { reason: 'ContainerCreating' } } }] })), 'ContainerCreating');
  assert.equal(statusCell(pod({ phase: 'Running', containerStatuses: [{ name: 'c', ready: true, state: { running: {} } }] })), 'Running');
  assert.equal(statusCell(pod({ phase: 'Running', containerStatuses: [{ name: 'c', restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } }] })), 'CrashLoopBackOff');
  assert.equal(statusCell(pod({ phase: 'Succeeded', containerStatuses: [{ name: 'c', state: { terminated: { reason: 'Completed', exitCode: 0 } } }] })), 'Completed');
  const init = pod({ phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { waiting: { reason: 'PodInitializing' } } }] }, { spec: { initContainers: [{ name: 'i' }], containers: [{ name: 'c' }] } });
  assert.equal(statusCell(init), 'Init:0/1');
  assert.equal(statusCell(pod({ phase: 'Running' }, { metadata: meta('p', { deletionTimestamp: '2026-01-01T01:00:00Z' }) })), 'Terminating');
});

test('pod row: ready count, restarts with age of the last one, wide columns', () => {
  const p = pod({ phase: 'Running', podIP: '10.0.0.5', containerStatuses: [{ name: 'c', ready: true, restartCount: 2, state: { running: {} }, lastState: { terminated: { finishedAt: '2026-01-01T00:58:00Z' } } }] }, { spec: { nodeName: 'n1', containers: [{ name: 'c' }] } });
  assert.deepEqual(printerFor('', 'pods').cells(p, now), ['p', '1/1', 'Running', '2 (2m ago)', '5m', '10.0.0.5', 'n1', '<none>', '<none>']);
});

test('other printers and the default', () => {
  const d = { metadata: meta('web'), spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } }, status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } } as KubeObject;
  assert.deepEqual(printerFor('apps', 'deployments').cells(d, now), ['web', '2/3', 3, 2, '5m', 'c', 'nginx', 'app=web']);
  const svc = { metadata: meta('s'), spec: { type: 'NodePort', clusterIP: '10.96.0.9', ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] } } as KubeObject;
  assert.deepEqual(printerFor('', 'services').cells(svc, now).slice(0, 5), ['s', 'NodePort', '10.96.0.9', '<none>', '80:30080/TCP']);
  const node = { metadata: meta('n', { labels: { 'node-role.kubernetes.io/control-plane': '' } }), spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.36.0' } } } as KubeObject;
  assert.deepEqual(printerFor('', 'nodes').cells(node, now).slice(0, 5), ['n', 'Ready,SchedulingDisabled', 'control-plane', '5m', 'v1.36.0']);
  assert.deepEqual(printerFor('', 'secrets').cells({ metadata: meta('s'), type: 'Opaque', data: { a: 'eA==' } } as KubeObject, now), ['s', 'Opaque', 1, '5m']);
  const def = printerFor('example.com', 'widgets');
  assert.deepEqual(def.columns.map(c => [c.name, c.type]), [['Name', 'string'], ['Created At', 'date']]);
});

test('tables carry list metadata and the row objects asked for', () => {
  const items = [{ metadata: meta('a') }, { metadata: meta('b') }] as KubeObject[];
  const t = toTable(printerFor('', 'configmaps'), items, { now, includeObject: 'Metadata', listMeta: { resourceVersion: '7', continue: 'x' }, group: 'meta.k8s.io', version: 'v1' }) as any;
  assert.equal(t.kind, 'Table');
  assert.equal(t.apiVersion, 'meta.k8s.io/v1');
  assert.deepEqual(t.metadata, { resourceVersion: '7', continue: 'x' });
  assert.equal(t.rows[0].object.kind, 'PartialObjectMetadata');
  const none = toTable(printerFor('', 'configmaps'), items, { now, includeObject: 'None', group: 'meta.k8s.io', version: 'v1' }) as any;
  assert.equal(none.rows[0].object, undefined);
});
