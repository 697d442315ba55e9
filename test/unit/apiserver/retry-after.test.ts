// --shutdown-send-retry-after: who is turned away, and the answer they get.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerRetryAfter, exemptFromRetryAfter } from '../../../src/apiserver/retry-after.ts';

test('health checks, /metrics and kube-apiserver\'s own loopback requests are still served', () => {
  for (const path of ['/readyz', '/livez/ping', '/healthz', '/metrics']) assert.ok(exemptFromRetryAfter(path, {}), path);
  assert.ok(exemptFromRetryAfter('/api/v1/pods', { 'user-agent': 'kube-apiserver/v1.35.0 (linux/amd64)' }));
  assert.ok(!exemptFromRetryAfter('/api/v1/pods', { 'user-agent': 'kubectl/v1.33.0' }));
  assert.ok(!exemptFromRetryAfter('/version', {}));
});

test('a 429 in plain text with Retry-After: 5; Connection: close over HTTP/1.1 only', () => {
  for (const [major, connection] of [[1, 'close'], [2, undefined]] as const) {
    let code = 0, headers: Record<string, string> = {}, body = '';
    answerRetryAfter({ httpVersionMajor: major }, { writeHead: (c, h) => { code = c; headers = h; }, end: b => { body = b; } });
    assert.equal(code, 429);
    assert.deepEqual([headers['retry-after'], headers['content-type'], headers.connection], ['5', 'text/plain; charset=utf-8', connection]);
    assert.equal(body, 'The apiserver is shutting down, please try again later.\n');
  }
});
