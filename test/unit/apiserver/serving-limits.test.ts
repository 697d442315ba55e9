// Connection limits: the SETTINGS announced, the HTTP/1.1 knobs, and idle HTTP/2 connections.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { applyHttp1Limits, closeIdleSessions, defaultServingLimits, http2Settings, serverOptions } from '../../../src/apiserver/serving-limits.ts';

test('kube-apiserver\'s figures: 1 MiB of headers, 32 s to send them, 90 s idle', () => {
  assert.deepEqual([defaultServingLimits.maxHeaderBytes, defaultServingLimits.requestHeaderTimeoutMs, defaultServingLimits.idleTimeoutMs], [1 << 20, 32_000, 90_000]);
  assert.deepEqual(http2Settings({ ...defaultServingLimits, http2MaxStreamsPerConnection: 100 }), { maxConcurrentStreams: 100, maxHeaderListSize: (1 << 20) + 320, maxFrameSize: 256 * 1024 });
  const server = {} as Record<string, number>;
  applyHttp1Limits(server as never, defaultServingLimits);
  assert.deepEqual(server, { maxHeaderSize: 1 << 20, headersTimeout: 32_000, keepAliveTimeout: 90_000, requestTimeout: 0 });
  // the header timeout is checked often enough to hold to it
  assert.equal(serverOptions({ ...defaultServingLimits, requestHeaderTimeoutMs: 1000 }).connectionsCheckingInterval, 250);
  assert.equal(serverOptions(defaultServingLimits).connectionsCheckingInterval, 8000);
});

class FakeSession extends EventEmitter {
  closed = false;
  destroyed = false;
  goaways: number[] = [];
  goaway(_code: number, last: number) { this.goaways.push(last); }
  close() { this.closed = true; this.emit('close'); }
}

test('an HTTP/2 connection goes once it has had no open stream for the idle time, gently', async t => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const s = new FakeSession();
  closeIdleSessions(s as never, 1000);
  const stream = new EventEmitter();
  t.mock.timers.tick(500);
  s.emit('stream', stream);
  t.mock.timers.tick(5000);
  assert.deepEqual(s.goaways, [], 'a stream is open: not idle');
  stream.emit('close');
  t.mock.timers.tick(999);
  assert.deepEqual(s.goaways, []);
  t.mock.timers.tick(1);
  // first a GOAWAY that refuses no stream the client may be opening, then the close
  assert.deepEqual(s.goaways, [2 ** 31 - 1]);
  assert.equal(s.closed, false);
  t.mock.timers.tick(1000);
  assert.equal(s.closed, true);
});
