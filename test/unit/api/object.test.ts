// Copies of JSON values: deep, independent of the original, and faithful to keys JSON allows
// but plain assignment would misread.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deepClone, jsonEqual } from '../../../src/api/object.ts';

test('deepClone copies a JSON value deeply: equal, and no part shared', () => {
  const original = JSON.parse('{"metadata":{"name":"a","labels":{"x":"1"}},"spec":{"list":[1,"two",null,true,{"k":[{"deep":{}}]}],"empty":[]},"n":1.5,"nil":null}');
  const copy = deepClone(original);
  assert.deepEqual(copy, original);
  assert.ok(jsonEqual(copy, original));
  copy.metadata.labels.x = '2';
  copy.spec.list[4].k[0].deep.added = true;
  copy.spec.empty.push(1);
  assert.equal(original.metadata.labels.x, '1');
  assert.deepEqual(original.spec.list[4].k[0].deep, {});
  assert.deepEqual(original.spec.empty, []);
  assert.equal(deepClone('text'), 'text');
  assert.equal(deepClone(null), null);
});

test('deepClone keeps a "__proto__" key as data, as JSON.parse does, without touching the prototype', () => {
  const original = JSON.parse('{"data":{"__proto__":{"polluted":true},"other":"v"}}');
  const copy = deepClone(original);
  assert.equal(Object.getPrototypeOf(copy.data), Object.prototype);
  assert.deepEqual(Object.keys(copy.data), ['__proto__', 'other']);
  assert.deepEqual(JSON.stringify(copy), JSON.stringify(original));
  assert.equal(copy.data.polluted, undefined);
  assert.notEqual(Object.getOwnPropertyDescriptor(copy.data, '__proto__')!.value, original.data['__proto__']);
});
