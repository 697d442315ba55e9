// The exact bytes of JSON responses: objects, lists and Status errors as kube-apiserver writes
// them (Go's encoding/json: struct field order, zero values of fields without omitempty, sorted
// map keys, HTML-safe escapes, a trailing newline). The expected bodies in golden/json-bodies.json
// were checked field by field against the Go structs; a change to any byte fails here.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testApi, type TestApi } from '../support/fake-request.ts';
import { encodeForStorage, jsonFromStorage, jsonListFromStorage } from '../../../src/registry/stored-object.ts';

type Case = [name: string, method: string, path: string, body: unknown, status: number, text: string, headers?: Record<string, string>];
const cases = JSON.parse(readFileSync(join(import.meta.dirname, 'golden/json-bodies.json'), 'utf8')) as Case[];

let api: TestApi;
// the admission plugins that shape objects without needing other objects in place (priority, tolerations, finalizers)
before(async () => { api = await testApi({ admission: ['Priority', 'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection'] }); });
after(() => api.close());

test('golden JSON bodies, in order (each builds on the ones before)', async () => {
  for (const [name, method, path, body, status, text, headers] of cases) {
    const r = await api.request(method as never, path, { ...(body === null ? {} : { body }), ...(headers ? { headers } : {}) } as never);
    assert.equal(r.status, status, name);
    assert.equal(r.text(), text, name);
  }
});

test('the rules the golden bodies hold, stated: kind first, Status field order, zero values, newline', () => {
  const byName = new Map(cases.map(c => [c[0], c[5]]));
  for (const [, , , , , text] of cases) {
    assert.ok(text.startsWith('{"kind":'), text.slice(0, 40));
    assert.ok(text.endsWith('}\n'));
  }
  const invalid = JSON.parse(byName.get('Invalid with causes')!);
  assert.deepEqual(Object.keys(invalid), ['kind', 'apiVersion', 'metadata', 'status', 'message', 'reason', 'details', 'code']);
  assert.deepEqual(Object.keys(invalid.details), ['name', 'kind', 'causes']);
  assert.deepEqual(Object.keys(invalid.details.causes[0]), ['reason', 'message', 'field']);
  assert.deepEqual(JSON.parse(byName.get('a ReplicationController: status.replicas written although zero')!).status, { replicas: 0 });
  const node = JSON.parse(byName.get('a Node: nodeInfo complete, quantities canonical')!);
  assert.equal(node.status.nodeInfo.kubeProxyVersion, '');
  assert.deepEqual([node.spec, node.status.daemonEndpoints], [{}, { kubeletEndpoint: { Port: 0 } }], 'struct values Go writes although empty');
  assert.deepEqual(JSON.parse(byName.get('a Service: status.loadBalancer written although empty, targetPort defaulted')!).status, { loadBalancer: {} });
  const event = JSON.parse(byName.get('a core Event: the Time fields without omitzero as null, reportingComponent and reportingInstance as ""')!);
  assert.deepEqual([event.source, event.firstTimestamp, event.lastTimestamp, event.eventTime, event.reportingComponent, event.reportingInstance], [{}, null, null, null, '', '']);
  assert.deepEqual(JSON.parse(byName.get('a Deployment')!).spec.template.spec.containers[0].resources, {});
  const sts = JSON.parse(byName.get('a StatefulSet: serviceName and the update strategy as Go writes them')!);
  assert.deepEqual([sts.spec.serviceName, sts.status, sts.spec.template.spec.containers[0].resources.limits], ['', { replicas: 0, availableReplicas: 0 }, { cpu: '1', memory: '1Gi' }]);
  const pom = JSON.parse(byName.get('a PartialObjectMetadataList')!);
  assert.deepEqual(Object.keys(pom.items[0]), ['kind', 'apiVersion', 'metadata'], 'items of a metadata-only list keep their type');
  assert.deepEqual(JSON.parse(byName.get('a Node: nodeInfo complete, quantities canonical')!).status.capacity, { cpu: '1', memory: '1Gi', pods: '110' });
  assert.match(byName.get('a ConfigMap: maps sorted, HTML characters escaped, managedFields')!, /"note":"\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c\/a\\u003e \\u2028"/);
  assert.equal(JSON.parse(byName.get('a Lease: MicroTime in microseconds, UTC')!).spec.renewTime, '2026-01-02T02:04:05.123456Z');
  const pod = JSON.parse(byName.get('a Pod: PodSpec in Go struct order, not field-number order')!);
  assert.deepEqual(Object.keys(pod.spec).slice(0, 2), ['initContainers', 'containers']);
  assert.ok(!('kind' in JSON.parse(byName.get('a list: items without kind and apiVersion')!).items[0]));
});

test('a get (stored bytes spliced) answers the same bytes as the create did', async () => {
  const created = await api.request('POST', '/apis/apps/v1/namespaces/default/replicasets', { body: { metadata: { name: 'rs', labels: { b: '1', a: '2' } }, spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } });
  assert.equal(created.status, 201, created.text());
  const got = await api.request('GET', '/apis/apps/v1/namespaces/default/replicasets/rs');
  assert.equal(got.text(), created.text());
  assert.match(got.text(), /"uid":"[^"]+","resourceVersion":"\d+","generation":1,/);
});

test('the stored form is Go\'s, without the resourceVersion', () => {
  const stored = Buffer.from(encodeForStorage({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { uid: 'u', resourceVersion: '5', name: 'x', labels: { b: '1', a: '1' } }, data: { k: 'v' } })).toString();
  assert.equal(stored, '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x","uid":"u","labels":{"a":"1","b":"1"}},"data":{"k":"v"}}');
});

test('objects stored before values were kept in Go\'s form are written in it when read', () => {
  const old = Buffer.from('{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"r","namespace":"default","uid":"u","labels":{"b":"1","a":"1"}},"spec":{"replicas":1},"status":{}}');
  const kv = { key: '/registry/controllers/default/r', value: new Uint8Array(old), createRevision: 3, modRevision: 4, version: 1, lease: 0 } as unknown as Parameters<typeof jsonFromStorage>[0];
  assert.equal(jsonFromStorage(kv, 'v1', 'ReplicationController').toString(),
    '{"kind":"ReplicationController","apiVersion":"v1","metadata":{"name":"r","namespace":"default","uid":"u","resourceVersion":"4","labels":{"a":"1","b":"1"}},"spec":{"replicas":1},"status":{"replicas":0}}\n');
  assert.equal(jsonListFromStorage('[', [kv], 'v1', 'ReplicationController', ']').toString(),
    '[{"metadata":{"name":"r","namespace":"default","uid":"u","resourceVersion":"4","labels":{"a":"1","b":"1"}},"spec":{"replicas":1},"status":{"replicas":0}}]');
});
