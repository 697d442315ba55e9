import { test } from 'node:test';
import assert from 'node:assert/strict';
import { status } from '@grpc/grpc-js';
import { CriError, goCodeName } from '../../../../src/agent/cri/errors.ts';

test('a failed CRI call reads as Go\'s status error, which Kubernetes shows in pod statuses', () => {
  const e = new CriError('PullImage', status.NOT_FOUND, 'failed to pull and unpack image "x"');
  assert.equal(e.message, 'rpc error: code = NotFound desc = failed to pull and unpack image "x"');
  assert.equal(e.code, 'NOT_FOUND');
  assert.deepEqual(['OK', 'CANCELLED', 'UNKNOWN', 'DEADLINE_EXCEEDED', 'UNIMPLEMENTED', 'UNAVAILABLE'].map(goCodeName), ['OK', 'Canceled', 'Unknown', 'DeadlineExceeded', 'Unimplemented', 'Unavailable']);
});
