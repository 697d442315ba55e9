// Table rows of admission policies and bindings as kube-apiserver prints them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { printerFor } from '../../../../src/schema/printers/index.ts';
import type { KubeObject } from '../../../../src/api/object.ts';

const now = new Date('2026-01-01T00:01:00Z');
const meta = { name: 'x', creationTimestamp: '2026-01-01T00:00:00Z' };
const row = (resource: string, o: unknown) => printerFor('admissionregistration.k8s.io', resource).cells(o as KubeObject, now);

test('policies: validations or mutations and paramKind', () => {
  assert.deepEqual(row('validatingadmissionpolicies', { metadata: meta, spec: { validations: [{}, {}], paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } } }), ['x', 2, 'v1/ConfigMap', '60s']);
  assert.deepEqual(row('validatingadmissionpolicies', { metadata: meta, spec: {} }), ['x', 0, '<unset>', '60s']);
  assert.deepEqual(row('mutatingadmissionpolicies', { metadata: meta, spec: { mutations: [{}] } }), ['x', 1, '<unset>', '60s']);
});

test('bindings: policy name and paramRef by namespace/name, */name or selector', () => {
  const b = (paramRef?: unknown) => row('validatingadmissionpolicybindings', { metadata: meta, spec: { policyName: 'p', paramRef } });
  assert.deepEqual(b({ name: 'lim', namespace: 'ns' }), ['x', 'p', 'ns/lim', '60s']);
  assert.deepEqual(b({ name: 'lim' }), ['x', 'p', '*/lim', '60s']);
  assert.deepEqual(b(undefined), ['x', 'p', '<unset>', '60s']);
  assert.equal(b({ selector: { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['v', 'w'] }] } })[2],
    '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[v w],},},}');
});
