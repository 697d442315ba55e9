// The serving flags as `orch server` reads them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servingFlags, servingOptions } from '../../../src/cli/serving-flags.ts';

const defaults = Object.fromEntries(Object.entries(servingFlags).map(([k, f]) => [k, f.default as string | boolean]));

test('defaults: 60 s requests, 1000 streams, 90 s idle, 32 s for headers, no 429s', () => {
  assert.deepEqual(servingOptions(defaults), {
    requestTimeoutMs: 60_000, shutdownSendRetryAfter: false,
    servingLimits: { http2MaxStreamsPerConnection: 1000, idleTimeoutMs: 90_000, requestHeaderTimeoutMs: 32_000 },
  });
  // 0 streams is kube-apiserver's "Go's default", which it sets to 100
  assert.equal(servingOptions({ ...defaults, 'http2-max-streams-per-connection': '0' }).servingLimits?.http2MaxStreamsPerConnection, 100);
});

test('bad values stop the server', () => {
  assert.throws(() => servingOptions({ ...defaults, 'http2-max-streams-per-connection': '-1' }), /invalid --http2-max-streams-per-connection/);
  assert.throws(() => servingOptions({ ...defaults, 'request-timeout': '0s' }), /--request-timeout must be above zero/);
  assert.throws(() => servingOptions({ ...defaults, 'idle-connection-timeout': 'soon' }), /invalid duration/);
});
