// The one mapping from storage errors to Status, case by case: code, reason and wording.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../src/api/status.ts';
import { StorageError, type StorageErrorCode } from '../../../src/storage/interface.ts';
import { statusFromError, tooLargeResourceVersion, type ErrorSubject } from '../../../src/registry/storage-errors.ts';

const pods = { group: '', resource: 'pods' };
const deployments = { group: 'apps', resource: 'deployments' };

const cases: Array<{ code: StorageErrorCode; about: ErrorSubject; extra?: { revision?: number }; want: [number, string, string] }> = [
  { code: 'key-exists', about: { resource: pods, name: 'p' }, want: [409, 'AlreadyExists', 'pods "p" already exists'] },
  { code: 'key-exists', about: { resource: deployments, name: 'd' }, want: [409, 'AlreadyExists', 'deployments.apps "d" already exists'] },
  { code: 'not-found', about: { resource: pods, name: 'p' }, want: [404, 'NotFound', 'pods "p" not found'] },
  { code: 'conflict', about: { resource: deployments, name: 'd' }, want: [409, 'Conflict', 'Operation cannot be fulfilled on deployments.apps "d": the object has been modified; please apply your changes to the latest version and try again'] },
  { code: 'compacted', about: { revision: 5 }, extra: { revision: 9 }, want: [410, 'Expired', 'too old resource version: 5 (9)'] },
  { code: 'compacted', about: { revision: 5, continued: true }, extra: { revision: 9 }, want: [410, 'Expired', 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.'] },
  { code: 'future-revision', about: { revision: 50 }, extra: { revision: 40 }, want: [504, 'Timeout', 'Too large resource version: 50, current: 40'] },
  { code: 'unavailable', about: {}, want: [503, 'ServiceUnavailable', 'storage is unavailable: backend gone'] },
];

for (const c of cases) {
  test(`storage '${c.code}' ${JSON.stringify(c.about)} → ${c.want[0]} ${c.want[1]}`, () => {
    const err = statusFromError(new StorageError(c.code, 'backend gone', c.extra), c.about);
    assert.deepEqual([err.code, err.reason, err.message], c.want);
  });
}

test('a Status passes through unchanged; any other error is a generic 500 with no details', () => {
  const status = new StatusError(422, 'Invalid', 'nope');
  assert.equal(statusFromError(status), status);
  const fault = statusFromError(new TypeError('x is undefined'));
  assert.deepEqual([fault.code, fault.reason], [500, 'InternalError']);
  assert.doesNotMatch(fault.message, /undefined/);
});

test('a version not reached yet: Retry-After and the ResourceVersionTooLarge cause', () => {
  const err = tooLargeResourceVersion(7, 3);
  assert.equal(err.headers?.['Retry-After'], '1');
  assert.deepEqual(err.status.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
});

test('a value over the storage limit: 413 RequestEntityTooLarge in etcd\'s words, from either backend', async () => {
  const { valueTooLarge } = await import('../../../src/storage/value-limit.ts');
  const { toStorageError } = await import('../../../src/storage/etcd/errors.ts');
  const ours = statusFromError(valueTooLarge('/registry/configmaps/default/big'));
  assert.deepEqual([ours.code, ours.reason, ours.message], [413, 'RequestEntityTooLarge', 'etcdserver: request is too large']);
  // etcd's own refusals (its --max-request-bytes, gRPC's message limit) read the same way, not as an unreachable etcd
  for (const m of ['etcdserver: request is too large', '8 RESOURCE_EXHAUSTED: Received message larger than max (4194305 vs. 4194304)']) {
    const theirs = statusFromError(toStorageError(new Error(m)));
    assert.deepEqual([theirs.code, theirs.reason, theirs.message], [413, 'RequestEntityTooLarge', 'etcdserver: request is too large'], m);
  }
});
