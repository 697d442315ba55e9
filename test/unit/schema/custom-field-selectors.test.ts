// Field selectors of custom resources: metadata.name, metadata.namespace (namespaced only) and
// the version's selectableFields, each read as fmt.Sprint of its value ("" when absent);
// anything else refused in apiextensions-apiserver's words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { customFieldFilter, validateCustomFieldSelector } from '../../../src/schema/custom-field-selectors.ts';
import { parseFieldSelector } from '../../../src/api/selectors/field.ts';
import { StatusError } from '../../../src/api/status.ts';
import type { ResourceInfo } from '../../../src/schema/types.ts';
import type { KubeObject } from '../../../src/api/object.ts';

function info(namespaced: boolean, selectableFields?: string[]): ResourceInfo {
  return {
    group: 'example.com', version: 'v1', resource: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', namespaced,
    verbs: [], shortNames: [], categories: [], subresources: [], definition: '', storageVersion: 'v1',
    custom: { crd: 'widgets.example.com', terminating: false, ...(selectableFields ? { selectableFields } : {}) },
  };
}

const w = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: 'ns' }, spec }) as unknown as KubeObject;
const objs = [w('a', { color: 'blue', size: 3, on: true, ratio: 0.5 }), w('b', { color: 'red', size: 10, on: false }), w('c', {})];

function select(i: ResourceInfo, text: string): string[] {
  const match = customFieldFilter(i, validateCustomFieldSelector(i, parseFieldSelector(text)));
  return objs.filter(match).map(o => o.metadata.name!);
}

function refusal(i: ResourceInfo, text: string): string {
  try { validateCustomFieldSelector(i, parseFieldSelector(text)); } catch (err) {
    assert.ok(err instanceof StatusError);
    assert.deepEqual([err.code, err.status.reason], [400, 'BadRequest']);
    return err.status.message!;
  }
  return 'accepted';
}

test('selectable fields of every declared type match as fmt prints them; absent ones are ""', () => {
  const i = info(true, ['spec.color', 'spec.size', 'spec.on', 'spec.ratio']);
  assert.deepEqual(select(i, 'spec.color=blue'), ['a']);
  assert.deepEqual(select(i, 'spec.color!=blue'), ['b', 'c']);
  assert.deepEqual(select(i, 'spec.size=10'), ['b']);
  assert.deepEqual(select(i, 'spec.on=true'), ['a']);
  assert.deepEqual(select(i, 'spec.on=false'), ['b']);
  assert.deepEqual(select(i, 'spec.ratio=0.5'), ['a']);
  assert.deepEqual(select(i, 'spec.color='), ['c']);
  assert.deepEqual(select(i, 'spec.color=red,metadata.name=b'), ['b']);
  assert.deepEqual(select(i, 'metadata.namespace=ns,spec.size!=3'), ['b', 'c']);
});

test('labels the version does not declare are refused as Kubernetes refuses them', () => {
  const i = info(true, ['spec.color']);
  assert.equal(refusal(i, 'spec.size=1'), 'field label not supported: spec.size');
  assert.equal(refusal(i, 'metadata.name=a,status.phase=x'), 'field label not supported: status.phase');
  assert.equal(refusal(info(true), 'spec.color=blue'), 'field label not supported: spec.color');
  assert.equal(refusal(i, 'metadata.namespace=ns'), 'accepted');
});

test('a cluster-scoped custom resource has no metadata.namespace field', () => {
  assert.equal(refusal(info(false, ['spec.color']), 'metadata.namespace=x'), 'field label not supported: metadata.namespace');
  assert.equal(refusal(info(false), 'metadata.name=a'), 'accepted');
});
