// --request-timeout and ?timeout=: the time a request gets, and the Status it ends with.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requestDeadlineMs, requestTimedOut } from '../../../src/apiserver/request-timeout.ts';
import { StatusError } from '../../../src/api/status.ts';

const q = (s: string) => new URLSearchParams(s);

test('the server\'s timeout unless the client asks for less, above zero', () => {
  assert.equal(requestDeadlineMs(q(''), 60_000), 60_000);
  assert.equal(requestDeadlineMs(q('timeout=5s'), 60_000), 5000);
  assert.equal(requestDeadlineMs(q('timeout=1m30s'), 60_000), 60_000, 'never more than the server gives');
  assert.equal(requestDeadlineMs(q('timeout=0s'), 60_000), 60_000, 'zero is no wish of the client\'s');
  assert.equal(requestDeadlineMs(q('timeout=250ms'), 60_000), 250);
});

test('a timeout that is not a Go duration is a 400 in kube-apiserver\'s words', () => {
  for (const [value, why] of [['soon', 'invalid duration "soon"'], ['5', 'missing unit in duration "5"']]) {
    assert.throws(() => requestDeadlineMs(q(`timeout=${value}`), 60_000), (e: unknown) =>
      e instanceof StatusError && e.code === 400 && e.reason === 'BadRequest' && e.message === `invalid timeout specified in the request URL - time: ${why}`);
  }
});

test('the 504 of the timeout filter: reason Timeout, its wording, no retry hint', () => {
  const err = requestTimedOut();
  assert.deepEqual([err.code, err.reason, err.message], [504, 'Timeout', 'Timeout: request did not complete within the allotted timeout']);
  assert.deepEqual(err.status.details, {});
  assert.equal(err.headers, undefined);
});
