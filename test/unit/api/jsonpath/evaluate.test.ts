// client-go's JSONPath as CRD printer columns and selectable fields use it: fields, brackets,
// indexes and slices, wildcards, recursive descent, filters; missing keys give nothing, and
// what client-go errs on throws.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findJsonPath, JsonPathError, parseJsonPath } from '../../../../src/api/jsonpath/evaluate.ts';

const obj = {
  metadata: { name: 'a', labels: { 'app.kubernetes.io/name': 'web', tier: 'front' } },
  spec: { replicas: 3, ratio: 0.5, on: false, ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }, { name: 'dns', port: 53 }] },
  status: {
    conditions: [{ type: 'Ready', status: 'True' }, { type: 'Synced', status: 'False', reason: 'Lag' }],
    nothing: null,
  },
};

test('fields, quoted and escaped names, the root', () => {
  assert.deepEqual(findJsonPath('.spec.replicas', obj), [3]);
  assert.deepEqual(findJsonPath('$.spec.replicas', obj), [3]);
  assert.deepEqual(findJsonPath(".metadata.labels['app.kubernetes.io/name']", obj), ['web']);
  assert.deepEqual(findJsonPath('.metadata.labels.app\\.kubernetes\\.io/name', obj), ['web']);
  assert.deepEqual(findJsonPath(".metadata.labels['tier','missing']", obj), ['front']);
  assert.deepEqual(findJsonPath('.', obj), [obj]);
  assert.deepEqual(findJsonPath('.status.nothing', obj), [null]);
});

test('missing keys select nothing, also below a list or a scalar', () => {
  assert.deepEqual(findJsonPath('.spec.missing', obj), []);
  assert.deepEqual(findJsonPath('.nope.deeper.still', obj), []);
  assert.deepEqual(findJsonPath('.spec.ports.name', obj), []);
  assert.deepEqual(findJsonPath('.spec.replicas.x', obj), []);
});

test('indexes, negative indexes, slices with steps, unions, wildcards', () => {
  assert.deepEqual(findJsonPath('.spec.ports[0].port', obj), [80]);
  assert.deepEqual(findJsonPath('.spec.ports[-1].name', obj), ['dns']);
  assert.deepEqual(findJsonPath('.spec.ports[0:2].port', obj), [80, 443]);
  assert.deepEqual(findJsonPath('.spec.ports[::2].port', obj), [80, 53]);
  assert.deepEqual(findJsonPath('.spec.ports[0,2].name', obj), ['http', 'dns']);
  assert.deepEqual(findJsonPath('.spec.ports[*].port', obj), [80, 443, 53]);
  assert.deepEqual(findJsonPath('.spec.ports.*', obj), obj.spec.ports);
  assert.throws(() => findJsonPath('.metadata.labels[*]', obj), /is not array or slice/);
  assert.deepEqual(findJsonPath('.metadata.labels.*', obj), ['web', 'front']);
  assert.deepEqual(findJsonPath('.spec.ports[3:3]', obj), []);
});

test('recursive descent', () => {
  assert.deepEqual(findJsonPath('..port', obj), [80, 443, 53]);
  assert.deepEqual(findJsonPath('.status..type', obj), ['Ready', 'Synced']);
});

test('filters: comparisons, existence, first match', () => {
  assert.deepEqual(findJsonPath('.status.conditions[?(@.type=="Ready")].status', obj), ['True']);
  assert.deepEqual(findJsonPath(".status.conditions[?(@.type == 'Synced')].reason", obj), ['Lag']);
  assert.deepEqual(findJsonPath('.status.conditions[?(@.reason)].type', obj), ['Synced']);
  assert.deepEqual(findJsonPath('.status.conditions[?(@.type!="Ready")].type', obj), ['Synced']);
  assert.deepEqual(findJsonPath('.spec.ports[?(@.port > 79)].name', obj), ['http', 'https']);
  assert.deepEqual(findJsonPath('.spec.ports[?(@.port<=53)].name', obj), ['dns']);
  assert.deepEqual(findJsonPath('.status.conditions[?(@.type=="Gone")].status', obj), []);
});

test('what client-go errs on throws: out of bounds, indexing a map, mismatched comparisons', () => {
  assert.throws(() => findJsonPath('.spec.ports[5]', obj), JsonPathError);
  assert.throws(() => findJsonPath('.metadata[0]', obj), /is not array or slice/);
  assert.throws(() => findJsonPath('.metadata[?(@.x)]', obj), /cannot be filtered/);
  assert.throws(() => findJsonPath('.spec.ports[?(@.port=="80")]', obj), /incompatible types/);
  assert.throws(() => findJsonPath('.spec.ports[0:1:0]', obj), /step must be > 0/);
});

test('malformed paths do not parse', () => {
  for (const bad of ['.spec[', '.spec.ports[a]', '.a[?(@.x==)]', '.a[?@.x]', '.a b']) {
    assert.throws(() => parseJsonPath(bad), JsonPathError, bad);
  }
});
