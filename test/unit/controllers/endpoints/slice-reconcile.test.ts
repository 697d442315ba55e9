import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconcileSlices, sliceLabels, slicePrefix, type ExistingSlice } from '../../../../src/controllers/endpoints/slice-reconcile.ts';
import { pod, service } from './fixtures.ts';

const pods = (n: number, from = 0) => Array.from({ length: n }, (_, i) => pod(`p${String(i + from).padStart(3, '0')}`, { ip: `10.0.${Math.floor((i + from) / 250)}.${((i + from) % 250) + 1}` }));
let seq = 0;
const asExisting = (s: ReturnType<typeof reconcileSlices>['create'][number]): ExistingSlice =>
  ({ ...s, metadata: { ...s.metadata, name: `${s.metadata.generateName}${++seq}`, namespace: 'ns', resourceVersion: '1' } }) as ExistingSlice;

test('a service with pods gets one slice with its labels, owner, ports and endpoints', () => {
  const svc = service('web', {}, { team: 'a', 'kubernetes.io/service-name': 'spoof' });
  const ch = reconcileSlices({ service: svc, pods: [pod('b', { ip: '10.0.0.2' }), pod('a', { ip: '10.0.0.1', ready: false })], existing: [], triggerTime: '2026-01-01T00:00:10Z' });
  assert.equal(ch.create.length, 1);
  assert.deepEqual(ch.update, []);
  const s = ch.create[0]!;
  assert.equal(s.metadata.generateName, 'web-');
  assert.deepEqual(s.metadata.labels, { team: 'a', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
  assert.deepEqual(s.metadata.annotations, { 'endpoints.kubernetes.io/last-change-trigger-time': '2026-01-01T00:00:10Z' });
  assert.deepEqual(s.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'uid-svc-web', controller: true, blockOwnerDeletion: true }]);
  assert.equal(s.addressType, 'IPv4');
  assert.deepEqual(s.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
  assert.deepEqual(s.endpoints!.map(e => [e.addresses[0], e.conditions!.ready]), [['10.0.0.1', false], ['10.0.0.2', true]]);
});

test('headless services are labelled; no pods means one placeholder slice, kept while nothing changes', () => {
  const svc = service('db', { clusterIP: 'None' });
  assert.equal(sliceLabels(svc)['service.kubernetes.io/headless'], '');
  const first = reconcileSlices({ service: svc, pods: [], existing: [] });
  assert.equal(first.create.length, 1);
  assert.equal(first.create[0]!.endpoints, undefined);
  assert.equal(first.create[0]!.ports, undefined);
  const placeholder = asExisting(first.create[0]!);
  assert.deepEqual(reconcileSlices({ service: svc, pods: [], existing: [placeholder] }), { create: [], update: [], delete: [] });
  // pods arrive: a real slice replaces the placeholder
  const next = reconcileSlices({ service: svc, pods: pods(2), existing: [placeholder] });
  assert.equal(next.create.length, 1);
  assert.deepEqual(next.delete.map(s => s.metadata.name), [placeholder.metadata.name]);
  // and all go: the last slice is deleted and a placeholder takes its place
  const real = asExisting(next.create[0]!);
  const gone = reconcileSlices({ service: svc, pods: [], existing: [real] });
  assert.equal(gone.create.length, 1);
  assert.deepEqual(gone.delete.map(s => s.metadata.name), [real.metadata.name]);
});

test('at most maxEndpointsPerSlice per slice; new endpoints fill existing slices before new ones are made', () => {
  const svc = service('web');
  const first = reconcileSlices({ service: svc, pods: pods(250), existing: [] });
  assert.deepEqual(first.create.map(s => s.endpoints!.length), [100, 100, 50]);
  const existing = first.create.map(asExisting);
  assert.deepEqual(reconcileSlices({ service: svc, pods: pods(250), existing }), { create: [], update: [], delete: [] });
  const grown = reconcileSlices({ service: svc, pods: pods(270), existing });
  assert.equal(grown.create.length, 0);
  assert.deepEqual(grown.update.map(s => s.endpoints!.length), [70]);
  // a pod going away changes only its slice
  const shrunk = reconcileSlices({ service: svc, pods: pods(249, 1), existing });
  assert.deepEqual(shrunk.update.map(s => s.metadata.name), [existing[0]!.metadata.name]);
  assert.equal(shrunk.update[0]!.endpoints!.length, 99);
});

test('a pod whose readiness changes updates its endpoint in place; a named port resolved differently gets its own slice', () => {
  const svc = service('web', { ports: [{ name: 'http', port: 80, targetPort: 'web', protocol: 'TCP' }] });
  const a = pod('a', { ip: '10.0.0.1', ports: [{ name: 'web', containerPort: 8080 }] });
  const b = pod('b', { ip: '10.0.0.2', ports: [{ name: 'web', containerPort: 9090 }] });
  const first = reconcileSlices({ service: svc, pods: [a, b], existing: [] });
  assert.deepEqual(first.create.map(s => [s.ports![0]!.port, s.endpoints!.map(e => e.targetRef!.name)]), [[8080, ['a']], [9090, ['b']]]);
  const existing = first.create.map(asExisting);
  const unready = pod('a', { ip: '10.0.0.1', ready: false, ports: [{ name: 'web', containerPort: 8080 }] });
  const ch = reconcileSlices({ service: svc, pods: [unready, b], existing, triggerTime: '2026-01-01T00:01:00Z' });
  assert.equal(ch.update.length, 1);
  assert.equal(ch.update[0]!.endpoints![0]!.conditions!.ready, false);
  assert.equal(ch.update[0]!.metadata.annotations!['endpoints.kubernetes.io/last-change-trigger-time'], '2026-01-01T00:01:00Z');
});

test('service label changes reach its slices; long names are cut to a valid prefix', () => {
  const existing = reconcileSlices({ service: service('web'), pods: pods(1), existing: [] }).create.map(asExisting);
  const ch = reconcileSlices({ service: service('web', {}, { tier: 'front' }), pods: pods(1), existing });
  assert.equal(ch.update[0]!.metadata.labels!.tier, 'front');
  assert.equal(slicePrefix('a'.repeat(63)).length, 58);
  assert.ok(slicePrefix('a'.repeat(63)).endsWith('-'));
});
