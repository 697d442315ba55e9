// Field paths from `object` checked against a kind's schema, as type checking reports them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderProblem, undefinedFields } from '../../../../src/schema/cel/field-check.ts';
import { schemaNode } from '../../../../src/schema/schema-walker.ts';

const deployment = schemaNode('io.k8s.api.apps.v1.Deployment')!;
const roots = new Map([['object', deployment], ['oldObject', deployment]]);
const check = (e: string) => undefinedFields(e, roots).map(p => renderProblem(e, p));

test('undefined fields are reported where they are selected', () => {
  assert.deepEqual(check('object.spec.replica > 1'), ["ERROR: <input>:1:12: undefined field 'replica'\n | object.spec.replica > 1\n | ...........^"]);
  assert.deepEqual(check('oldObject.spec.template.spec.containers[0].nam == "x"').length, 1);
  assert.deepEqual(check('object.spec.template.spec.containers.all(c, c.imag != "")').map(s => s.split('\n')[0]), ["ERROR: <input>:1:46: undefined field 'imag'"]);
});

test('known fields, map keys, shadowing variables and untyped roots pass', () => {
  for (const e of ['object.spec.replicas > 1', 'object.metadata.labels.anything == "x"', '[1].all(object, object.x == 1)', 'params.whatever', 'object.spec.template.spec.containers.all(c, c.image != "")']) {
    assert.deepEqual(check(e), [], e);
  }
});
