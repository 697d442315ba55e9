// Defaults on read: a stored custom resource is defaulted by the schema of the version it is
// stored in before it is converted to the version served; no hook when no schema has defaults.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDefaults } from '../../../../src/registry/apiextensions/read-defaults.ts';
import { decodeFromStorage, jsonFromStorage } from '../../../../src/registry/stored-object.ts';
import type { ResourceInfo } from '../../../../src/schema/types.ts';

const schema = (dflt: unknown) => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: { size: { type: 'integer', ...(dflt === undefined ? {} : { default: dflt }) }, mode: { type: 'string' } } } },
});

function info(versionSchemas: Record<string, unknown>, version = 'v2'): ResourceInfo {
  return {
    group: 'example.com', version, resource: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', namespaced: false,
    verbs: [], shortNames: [], categories: [], subresources: [], definition: '', storageVersion: 'v2',
    custom: { crd: 'widgets.example.com', terminating: false, versionSchemas },
  };
}

const kv = (obj: unknown) => ({ key: '/registry/example.com/widgets/a', value: Buffer.from(JSON.stringify(obj)), modRevision: 5, createRevision: 5, version: 1 });

test('no schema with a default: no hook at all', () => {
  assert.equal(readDefaults(info({ v1: schema(undefined), v2: schema(undefined) })), undefined);
  assert.equal(readDefaults(info({})), undefined);
});

test('the stored version\'s defaults apply, then the object is served in the version asked for', () => {
  const i = info({ v1: schema(1), v2: schema(2) });
  const hook = readDefaults(i)!;
  assert.equal(readDefaults(i), hook, 'made once per served version');
  const storedV1 = kv({ kind: 'Widget', apiVersion: 'example.com/v1', metadata: { name: 'a', uid: 'u' }, spec: { mode: 'x' } });
  const read = decodeFromStorage(storedV1, 'example.com/v2', 5, hook);
  assert.deepEqual(read, { kind: 'Widget', apiVersion: 'example.com/v2', metadata: { name: 'a', uid: 'u', resourceVersion: '5' }, spec: { mode: 'x', size: 1 } });
  const storedV2 = kv({ kind: 'Widget', apiVersion: 'example.com/v2', metadata: { name: 'a', uid: 'u' }, spec: { size: 7 } });
  assert.deepEqual(decodeFromStorage(storedV2, 'example.com/v2', 5, hook).spec, { size: 7 }, 'a value set is kept');
  assert.deepEqual(decodeFromStorage(kv({ kind: 'Widget', apiVersion: 'example.com/v2', metadata: { name: 'a' } }), 'example.com/v2', 5, hook).spec, undefined, 'defaults apply below what exists');
});

test('the JSON fast path gives the defaulted object too', () => {
  const hook = readDefaults(info({ v2: schema(4) }))!;
  const stored = kv({ kind: 'Widget', apiVersion: 'example.com/v2', metadata: { name: 'a', uid: 'u' }, spec: {} });
  const body = JSON.parse(jsonFromStorage(stored, 'example.com/v2', 'Widget', hook).toString());
  assert.deepEqual(body.spec, { size: 4 });
  assert.deepEqual(JSON.parse(jsonFromStorage(stored, 'example.com/v2', 'Widget').toString()).spec, {}, 'without the hook, as stored');
});
