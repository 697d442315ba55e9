// Admission policies and bindings are checked on write: expressions must compile (in cel-go's
// words), a policy must validate or annotate something, a binding must name its policy and actions.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/api/object.ts';
import { StatusError } from '../../../../src/api/status.ts';
import { testRegistry } from '../../support/registry.ts';

test('a policy whose expression does not compile is a 422 naming the field and the compile error', async () => {
  const r = await testRegistry();
  try {
    const info = r.info('admissionregistration.k8s.io', 'validatingadmissionpolicies');
    const body = (validations: unknown[]) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: [] }, validations } }) as unknown as KubeObject;
    const err = await r.store.create(info, undefined, body([{ expression: 'object.ok' }, { expression: 'objekt.spec', messageExpression: 'params.x +' }])).then(() => undefined, e => e);
    assert.ok(err instanceof StatusError);
    assert.equal(err.status.code, 422);
    assert.match(err.message, /^ValidatingAdmissionPolicy\.admissionregistration\.k8s\.io "p" is invalid: \[spec\.validations\[1\]\.expression: Invalid value: "objekt\.spec": compilation failed: ERROR: <input>:1:1: undeclared reference to 'objekt' \(in container ''\)\n \| objekt\.spec\n \| \^, spec\.validations\[1\]\.messageExpression: Invalid value: "params\.x \+": compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
    const empty = await r.store.create(info, undefined, body([])).then(() => undefined, e => e);
    assert.match(empty.message, /spec\.validations: Required value: validations or auditAnnotations must contain at least one item/);
    await r.store.create(info, undefined, body([{ expression: "object.metadata.name.startsWith('a')" }]));
  } finally { await r.close(); }
});

test('a binding needs its policy name and known validation actions', async () => {
  const r = await testRegistry();
  try {
    const info = r.info('admissionregistration.k8s.io', 'validatingadmissionpolicybindings');
    const err = await r.store.create(info, undefined, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { validationActions: ['Deny', 'Block'] } } as unknown as KubeObject).then(() => undefined, e => e);
    assert.equal(err.message, 'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: [spec.policyName: Required value, spec.validationActions[1]: Unsupported value: "Block": supported values: "Audit", "Deny", "Warn"]');
    const both = await r.store.create(info, undefined, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny', 'Warn', 'Warn'] } } as unknown as KubeObject).then(() => undefined, e => e);
    assert.equal(both.message, 'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: [spec.validationActions[2]: Duplicate value: "Warn", spec.validationActions: Invalid value: ["Deny","Warn","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)]');
  } finally { await r.close(); }
});

test('a mutating policy may build typed objects in its mutations, not elsewhere', async () => {
  const r = await testRegistry();
  try {
    const info = r.info('admissionregistration.k8s.io', 'mutatingadmissionpolicies');
    const body = (expression: string, condition = 'true') => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicy', metadata: { name: 'm' }, spec: {
      matchConstraints: { resourceRules: [] }, matchConditions: [{ name: 'c', expression: condition }],
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression } }],
    } }) as unknown as KubeObject;
    const err = await r.store.create(info, undefined, body("Object{metadata: Object.metadata{labels: {'a': 'b'}}}", 'Object{}')).then(() => undefined, e => e);
    assert.match(err.message, /^MutatingAdmissionPolicy\.admissionregistration\.k8s\.io "m" is invalid: spec\.matchConditions\[0\]\.expression: Invalid value: "Object\{\}": compilation failed: ERROR: <input>:1:1: undeclared reference to 'Object'/);
    await r.store.create(info, undefined, body("Object{metadata: Object.metadata{labels: {'a': 'b'}}}"));
  } finally { await r.close(); }
});
