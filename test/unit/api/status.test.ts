import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alreadyExists, conflict, invalid, notFound, resourceNotFound, StatusError, toStatusError } from '../../../src/api/status.ts';

test('NotFound names the group-qualified resource as kubectl prints it', () => {
  const e = notFound({ group: '', resource: 'pods' }, 'web');
  assert.equal(e.status.message, 'pods "web" not found');
  assert.equal(e.status.code, 404);
  assert.deepEqual(e.status.details, { name: 'web', kind: 'pods' });
  const g = notFound({ group: 'apps', resource: 'deployments' }, 'd');
  assert.equal(g.status.message, 'deployments.apps "d" not found');
  assert.equal(g.status.details?.group, 'apps');
});

test('AlreadyExists and Conflict use Kubernetes wording and 409', () => {
  assert.equal(alreadyExists({ group: '', resource: 'configmaps' }, 'x').status.message, 'configmaps "x" already exists');
  const c = conflict({ group: 'apps', resource: 'deployments' }, 'd');
  assert.equal(c.status.code, 409);
  assert.equal(c.status.reason, 'Conflict');
  assert.equal(c.status.message, 'Operation cannot be fulfilled on deployments.apps "d": the object has been modified; please apply your changes to the latest version and try again');
});

test('Invalid aggregates field errors and lists causes', () => {
  const one = invalid('Pod', '', 'Bad', [{ type: 'FieldValueInvalid', field: 'metadata.name', value: 'Bad', detail: 'must be lower case' }]);
  assert.equal(one.status.message, 'Pod "Bad" is invalid: metadata.name: Invalid value: "Bad": must be lower case');
  assert.equal(one.status.code, 422);
  assert.deepEqual(one.status.details?.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Bad": must be lower case', field: 'metadata.name' }]);
  const two = invalid('Deployment', 'apps', 'd', [
    { type: 'FieldValueRequired', field: 'spec.selector' },
    { type: 'FieldValueInvalid', field: 'spec.replicas', value: -1, detail: 'must be greater than or equal to 0' },
  ]);
  assert.equal(two.status.message, 'Deployment.apps "d" is invalid: [spec.selector: Required value, spec.replicas: Invalid value: -1: must be greater than or equal to 0]');
});

test('unknown errors become 500 InternalError without their text; Status errors pass through', () => {
  let thrown: unknown;
  try { (null as unknown as { x: number }).x; } catch (err) { thrown = err; }
  const e = toStatusError(thrown);
  assert.equal(e.code, 500);
  assert.equal(e.reason, 'InternalError');
  assert.match(e.status.message!, /^Internal error occurred: /);
  assert.doesNotMatch(JSON.stringify(e.status), /TypeError|Cannot read properties|null/);
  const nf = resourceNotFound();
  assert.equal(toStatusError(nf), nf);
  assert.ok(nf instanceof StatusError);
});
