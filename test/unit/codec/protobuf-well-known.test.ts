import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, formatTime, parseDuration, parseTime } from '../../../src/codec/protobuf/well-known.ts';
import { decodeMessage } from '../../../src/codec/protobuf/decode.ts';
import { encodeMessage } from '../../../src/codec/protobuf/encode.ts';

test('durations print as Go prints them and parse back', () => {
  const cases: Array<[number, string]> = [[0, '0s'], [3e11, '5m0s'], [5e8, '500ms'], [3.6e12 + 1.5e9, '1h0m1.5s'], [1500, '1.5µs'], [999, '999ns'], [-9e10, '-1m30s'], [1e9 + 1, '1.000000001s']];
  for (const [ns, text] of cases) {
    assert.equal(formatDuration(ns), text);
    assert.equal(parseDuration(text), ns);
  }
  assert.equal(parseDuration('1h30m'), 5.4e12);
  assert.equal(parseDuration('2us'), 2000);
  assert.equal(parseDuration('10'), undefined);
  assert.equal(parseDuration('abc'), undefined);
});

test('times: seconds or microseconds, the zero time is null', () => {
  assert.equal(formatTime(1704067200, 0, false), '2024-01-01T00:00:00Z');
  assert.equal(formatTime(1704067200, 999999999, false), '2024-01-01T00:00:00Z');
  assert.equal(formatTime(1704067200, 5000, true), '2024-01-01T00:00:00.000005Z');
  assert.equal(formatTime(0, 0, false), null);
  assert.deepEqual(parseTime('2024-01-01T00:00:00.000005Z'), { seconds: 1704067200, nanos: 5000 });
  assert.deepEqual(parseTime('2024-01-01T02:00:00+02:00'), { seconds: 1704067200, nanos: 0 });
  assert.equal(parseTime('yesterday'), undefined);
});

test('a Probe: the embedded handler is field 1 on the wire, inlined in JSON', () => {
  // Probe{handler(1): ProbeHandler{httpGet(2): HTTPGetAction{path(1) "/h", port(2) IntOrString{type 0, intVal 80}}}, periodSeconds(4) 7}
  const httpGet = [0x0a, 2, 0x2f, 0x68, 0x12, 4, 0x08, 0x00, 0x10, 80];
  const handler = [0x12, httpGet.length, ...httpGet];
  const bytes = Uint8Array.from([0x0a, handler.length, ...handler, 0x20, 7]);
  const probe = { httpGet: { path: '/h', port: 80 }, periodSeconds: 7 };
  assert.deepEqual(decodeMessage(bytes, 'k8s.io.api.core.v1.Probe'), probe);
  assert.deepEqual(decodeMessage(encodeMessage(probe, 'k8s.io.api.core.v1.Probe'), 'k8s.io.api.core.v1.Probe'), probe);
});

test('long fields get multi-byte lengths', () => {
  const value = 'x'.repeat(20000) + 'é';
  const cm = { metadata: { name: 'big' }, data: { v: value } };
  assert.deepEqual(decodeMessage(encodeMessage(cm, 'k8s.io.api.core.v1.ConfigMap'), 'k8s.io.api.core.v1.ConfigMap'), cm);
});
