// One policy's evaluation: validations, messages, reasons, failurePolicy, variables,
// matchConditions and audit annotations, in kube-apiserver's words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compilePolicy } from '../../../../../../src/apiserver/admission/plugins/validating-admission-policy/compiled-policy.ts';
import { validatePolicy, type PolicyInputs } from '../../../../../../src/apiserver/admission/plugins/validating-admission-policy/validate-policy.ts';
import { deployment, policy } from './fixtures.ts';

const inputs = (replicas: number, params: unknown = null): PolicyInputs => ({
  object: deployment(replicas), oldObject: null, params, request: { operation: 'CREATE', userInfo: { username: 'jane' } }, namespaceObject: { metadata: { name: 'dev', labels: { env: 'test' } } },
});

test('a false validation denies with its message, else "failed expression: <expression>"', () => {
  const p = compilePolicy(policy('p', { validations: [{ expression: 'object.spec.replicas <= 3' }, { expression: 'object.spec.replicas <= 2', message: 'at most two', reason: 'Forbidden' }] }));
  const r = validatePolicy(p, inputs(5));
  assert.deepEqual(r.decisions.map(d => [d.action, d.message, d.reason]), [['deny', 'failed expression: object.spec.replicas <= 3', 'Invalid'], ['deny', 'at most two', 'Forbidden']]);
  assert.deepEqual(validatePolicy(p, inputs(1)).decisions.map(d => d.action), ['admit', 'admit']);
});

test('messageExpression is used unless it fails, is empty or has a newline', () => {
  const v = (messageExpression: string) => compilePolicy(policy('p', { validations: [{ expression: 'false', message: 'static', messageExpression }] }));
  assert.equal(validatePolicy(v("'replicas ' + string(object.spec.replicas) + ' too many'"), inputs(5)).decisions[0]!.message, 'replicas 5 too many');
  assert.equal(validatePolicy(v("'  '"), inputs(5)).decisions[0]!.message, 'static');
  assert.equal(validatePolicy(v("'a\\nb'"), inputs(5)).decisions[0]!.message, 'static');
  assert.equal(validatePolicy(v('1 / 0 == 1 ? "x" : "y"'), inputs(5)).decisions[0]!.message, 'static');
});

test('params, request, namespaceObject and variables are in scope', () => {
  const p = compilePolicy(policy('p', {
    variables: [{ name: 'limit', expression: 'int(params.data.maxReplicas)' }, { name: 'over', expression: 'object.spec.replicas > variables.limit' }],
    validations: [
      { expression: '!variables.over', messageExpression: "'max ' + string(variables.limit)" },
      { expression: "request.userInfo.username == 'jane' && namespaceObject.metadata.labels.env == 'test'" },
    ],
  }));
  const r = validatePolicy(p, inputs(5, { data: { maxReplicas: '3' } }));
  assert.deepEqual(r.decisions.map(d => [d.action, d.message]), [['deny', 'max 3'], ['admit', '']]);
});

test('errors follow failurePolicy: Fail denies with the error, Ignore admits', () => {
  const spec = { validations: [{ expression: 'object.spec.missing > 1' }] };
  const fail = validatePolicy(compilePolicy(policy('p', spec)), inputs(1)).decisions[0]!;
  assert.deepEqual([fail.action, fail.evaluation, fail.message], ['deny', 'error', "expression 'object.spec.missing > 1' resulted in error: field not found: missing"]);
  const ignore = validatePolicy(compilePolicy(policy('p', { ...spec, failurePolicy: 'Ignore' })), inputs(1)).decisions[0]!;
  assert.deepEqual([ignore.action, ignore.evaluation], ['admit', 'error']);
  const notBool = validatePolicy(compilePolicy(policy('p', { validations: [{ expression: "'x'" }] })), inputs(1)).decisions[0]!;
  assert.deepEqual([notBool.action, notBool.message], ['deny', "failed expression: 'x'"]);
});

test('an expression that does not compile is a compilation error when evaluated', () => {
  const d = validatePolicy(compilePolicy(policy('p', { validations: [{ expression: 'objekt.spec.replicas < 3' }] })), inputs(1)).decisions[0]!;
  assert.equal(d.message, "compilation error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'objekt' (in container '')\n | objekt.spec.replicas < 3\n | ^");
  const v = validatePolicy(compilePolicy(policy('p', { variables: [{ name: 'x', expression: 'nope' }], validations: [{ expression: 'variables.x' }] })), inputs(1)).decisions[0]!;
  assert.match(v.message, /^expression 'variables.x' resulted in error: composited variable "x" fails to compile: compilation failed: ERROR/);
});

test('matchConditions: any false skips the policy; errors follow failurePolicy', () => {
  const skip = compilePolicy(policy('p', { matchConditions: [{ name: 'big', expression: 'object.spec.replicas > 10' }], validations: [{ expression: 'false' }] }));
  assert.equal(validatePolicy(skip, inputs(5)).matched, false);
  assert.equal(validatePolicy(skip, inputs(50)).decisions[0]!.action, 'deny');
  const broken = compilePolicy(policy('p', { matchConditions: [{ name: 'x', expression: 'object.nope' }], validations: [{ expression: 'true' }] }));
  assert.equal(validatePolicy(broken, inputs(5)).decisions[0]!.message, "expression 'object.nope' resulted in error: field not found: nope");
});

test('audit annotations: strings published, null excluded, other types an error', () => {
  const p = compilePolicy(policy('p', { auditAnnotations: [
    { key: 'replicas', valueExpression: "'n=' + string(object.spec.replicas)" },
    { key: 'none', valueExpression: 'null' },
    { key: 'bad', valueExpression: '1' },
  ] }));
  assert.deepEqual(validatePolicy(p, inputs(4)).annotations, [
    { key: 'replicas', value: 'n=4' },
    { key: 'bad', error: "valueExpression '1' resulted in unsupported return type: int. Return type must be either string or null." },
  ]);
});
