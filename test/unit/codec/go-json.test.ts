// Go's encoding/json as the server writes with it: field order from the generated table, zero
// values of fields Go writes without omitempty, sorted maps, escapes, times, typed lists.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goJson, goJsonBody, goJsonIndented, goString, indent } from '../../../src/codec/go-json.ts';

test('strings: <, >, &, U+2028 and U+2029 escaped as Go escapes them; the rest as JSON writes it', () => {
  assert.equal(goString('a<b>&c\u2028\u2029"\\\n'), '"a\\u003cb\\u003e\\u0026c\\u2028\\u2029\\"\\\\\\n"');
  assert.equal(goString('plain'), '"plain"');
});

test('struct order is Go\'s, kind and apiVersion first, whatever order the fields came in', () => {
  const text = goJson({ status: { phase: 'Pending' }, spec: { containers: [{ image: 'i', name: 'c' }] }, metadata: { namespace: 'n', name: 'p' }, apiVersion: 'v1', kind: 'Pod' });
  assert.equal(text, '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"n"},"spec":{"containers":[{"name":"c","image":"i","resources":{}}]},"status":{"phase":"Pending"}}');
});

test('fields Go writes without omitempty are present with their zero value', () => {
  assert.equal(goJson({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd' }, status: {} }).split('"status":')[1],
    '{"currentNumberScheduled":0,"numberMisscheduled":0,"desiredNumberScheduled":0,"numberReady":0}}');
  // a Status without a message still has its code; an empty details keeps none of its optional fields
  assert.equal(goJson({ code: 500, kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' }), '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","code":500}');
});

test('maps sorted by key; opaque JSON (fieldsV1) kept as given', () => {
  const text = goJson({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { z: '1', a: '2', m: '3' }, managedFields: [{ manager: 'm', fieldsV1: { 'f:z': {}, 'f:a': {} } }] }, data: { b: '1', a: '2' } });
  assert.match(text, /"labels":\{"a":"2","m":"3","z":"1"\}/);
  assert.match(text, /"fieldsV1":\{"f:z":\{\},"f:a":\{\}\}/);
  assert.match(text, /"data":\{"a":"2","b":"1"\}/);
});

test('Time in whole seconds UTC, MicroTime with six digits UTC; quantities canonical', () => {
  const ev = JSON.parse(goJson({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', creationTimestamp: '2026-03-04T05:06:07.999+02:00' }, involvedObject: {}, eventTime: '2026-03-04T05:06:07.5Z' }));
  assert.equal(ev.metadata.creationTimestamp, '2026-03-04T03:06:07Z');
  assert.equal(ev.eventTime, '2026-03-04T05:06:07.500000Z');
  const pod = JSON.parse(goJson({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1000m', memory: '1024Mi' }, limits: { cpu: 2, memory: '0.5Gi' } } }] } }));
  assert.deepEqual(pod.spec.containers[0].resources, { limits: { cpu: '2', memory: '512Mi' }, requests: { cpu: '1', memory: '1Gi' } });
});

test('typed lists: items without kind and apiVersion; metadata-only lists keep them', () => {
  const item = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
  assert.equal(goJson({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '3' }, items: [item] }), '{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"3"},"items":[{"metadata":{"name":"a"}}]}');
  assert.equal(goJson({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: {} }), '{"kind":"ConfigMapList","apiVersion":"v1","metadata":{},"items":null}');
  const pom = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'a' } };
  assert.equal(goJson({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList', metadata: {}, items: [pom] }),
    '{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{},"items":[{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a"}}]}');
});

test('Table in its Go struct order', () => {
  const t = goJson({ rows: [{ object: { x: 1 }, cells: ['a'] }], columnDefinitions: [{ type: 'string', name: 'Name', priority: 0, format: 'name', description: 'd' }], metadata: {}, apiVersion: 'meta.k8s.io/v1', kind: 'Table' });
  assert.equal(t, '{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"columnDefinitions":[{"name":"Name","type":"string","format":"name","description":"d","priority":0}],"rows":[{"cells":["a"],"object":{"x":1}}]}');
});

test('untyped values (the server\'s own structs) keep their order; bodies end in a newline; indented output is MarshalIndent\'s', () => {
  assert.equal(goJsonBody({ b: 1, a: '<' }), '{"b":1,"a":"\\u003c"}\n');
  assert.equal(goJsonIndented({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: '&' }, data: {} }), '{\n  "kind": "ConfigMap",\n  "apiVersion": "v1",\n  "metadata": {\n    "name": "\\u0026"\n  },\n  "data": {}\n}');
});

test('objects of a type the server has no struct for (custom resources) are unstructured to Go: every key sorted, at every level', () => {
  const cr = { metadata: { uid: 'u', name: 'n', labels: { b: '1', a: '2' } }, spec: { z: [{ y: 1, x: 2 }], a: null }, kind: 'CronTab', apiVersion: 'stable.example.com/v1' };
  assert.equal(goJson(cr), '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"labels":{"a":"2","b":"1"},"name":"n","uid":"u"},"spec":{"a":null,"z":[{"x":2,"y":1}]}}');
  // embedded in a watch event or a list of another kind, the same
  assert.match(goJson({ kind: 'WatchEvent', apiVersion: 'meta.k8s.io/v1', type: 'ADDED', object: cr }), /"object":\{"apiVersion":"stable/);
});

test('map keys sort by their UTF-8 bytes, as Go sorts them, not by UTF-16 units', () => {
  // U+FF5E sorts before U+1F600 in UTF-8 (and code points), after it in UTF-16 (0xD83D)
  const text = goJson({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', annotations: { '\u{1F600}': 'a', '\uFF5E': 'b', 'z': 'c', '10': 'd', '9': 'e' } } });
  assert.match(text, /"annotations":\{"10":"d","9":"e","z":"c","\uFF5E":"b","\u{1F600}":"a"\}/u);
});

test('indented output is re-indented text: integer-like keys keep Go\'s sorted order, large integers their digits, empty {} and [] stay', () => {
  const text = goJsonIndented({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { '9': 'a', '10': 'b', '-x': 'c' } }, data: {}, binaryData: { k: 'YQ==' } });
  assert.equal(text, '{\n  "kind": "ConfigMap",\n  "apiVersion": "v1",\n  "metadata": {\n    "name": "x",\n    "labels": {\n      "-x": "c",\n      "10": "b",\n      "9": "a"\n    }\n  },\n  "data": {},\n  "binaryData": {\n    "k": "YQ=="\n  }\n}');
  assert.equal(indent('{"a":[],"b":[1,{"c":"x,\\"y\\":{["}],"d":12345678901234567890}'), '{\n  "a": [],\n  "b": [\n    1,\n    {\n      "c": "x,\\"y\\":{["\n    }\n  ],\n  "d": 12345678901234567890\n}');
});

test('the fields Go writes unset come from the Go structs\' json tags, not the OpenAPI required lists', () => {
  // struct values are never empty to Go: a container's resources, a Service's load balancer status
  assert.equal(goJson({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } }), '{"kind":"Service","apiVersion":"v1","metadata":{"name":"s"},"spec":{},"status":{"loadBalancer":{}}}');
  // a Time without omitzero is null, strings without omitempty "" (none of them required in OpenAPI)
  assert.equal(goJson({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, involvedObject: { name: 'p' } }),
    '{"kind":"Event","apiVersion":"v1","metadata":{"name":"e"},"involvedObject":{"name":"p"},"source":{},"firstTimestamp":null,"lastTimestamp":null,"eventTime":null,"reportingComponent":"","reportingInstance":""}');
  // a pointer without omitempty is null; metadata.creationTimestamp has omitzero since 1.33: left out
  assert.equal(goJson({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: {} }),
    '{"kind":"StatefulSet","apiVersion":"apps/v1","metadata":{},"spec":{"selector":null,"template":{"metadata":{},"spec":{"containers":null}},"serviceName":"","updateStrategy":{}},"status":{"replicas":0,"availableReplicas":0}}');
  // required in OpenAPI but omitempty in Go: left out when unset
  assert.equal(goJson({ apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', metadata: { name: '10.0.0.1' }, spec: {} }),
    '{"kind":"IPAddress","apiVersion":"networking.k8s.io/v1","metadata":{"name":"10.0.0.1"},"spec":{}}');
  // Node: spec and daemonEndpoints, the whole nodeInfo
  assert.match(goJson({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, status: { nodeInfo: { kubeletVersion: 'v1.36.0' } } }),
    /"spec":\{\},"status":\{"daemonEndpoints":\{"kubeletEndpoint":\{"Port":0\}\},"nodeInfo":\{"machineID":"",.*"kubeletVersion":"v1.36.0","kubeProxyVersion":"",/);
});

test('null is Go\'s zero value: written as an unset field is (left out, or its zero)', () => {
  assert.equal(goJson({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: null }, data: null, immutable: null }), '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x"}}');
  assert.equal(goJson({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'r' }, status: null }), '{"kind":"ReplicationController","apiVersion":"v1","metadata":{"name":"r"},"spec":{},"status":{"replicas":0}}');
});

test('definitions without a protobuf message take their Go struct order too (CustomResourceDefinition, APIService)', () => {
  const crd = goJson({ status: {}, spec: { versions: [], scope: 'Namespaced', names: { plural: 'xs', kind: 'X' }, group: 'g.io' }, metadata: { name: 'xs.g.io' }, apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' });
  assert.ok(crd.startsWith('{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1","metadata":{"name":"xs.g.io"},"spec":{"group":"g.io","names":{"plural":"xs","kind":"X"},"scope":"Namespaced","versions":[]},"status":'), crd);
  const svc = goJson({ spec: { groupPriorityMinimum: 1, versionPriority: 1, group: 'g', version: 'v1' }, metadata: { name: 'v1.g' }, apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService' });
  assert.equal(svc, '{"kind":"APIService","apiVersion":"apiregistration.k8s.io/v1","metadata":{"name":"v1.g"},"spec":{"group":"g","version":"v1","groupPriorityMinimum":1,"versionPriority":1},"status":{}}');
});

test('Table and metadata views: the fields their Go structs write although unset', () => {
  assert.equal(goJson({ apiVersion: 'meta.k8s.io/v1', kind: 'Table', rows: [{ cells: ['a'] }, {}], columnDefinitions: [{ name: 'Name' }] }),
    '{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"columnDefinitions":[{"name":"Name","type":"","format":"","description":"","priority":0}],"rows":[{"cells":["a"],"object":null},{"cells":null,"object":null}]}');
  assert.equal(goJson({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList', items: [{ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata' }] }),
    '{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{},"items":[{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{}}]}');
  assert.equal(goJson({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList' }), '{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{},"items":null}');
});
