import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject, messageFor, ProtobufError } from '../../../src/codec/protobuf/envelope.ts';
import { goDuration } from '../../../src/codec/protobuf/decode.ts';

// hand-assembled wire bytes, independent of the decoder
function varint(n: number): number[] { const o: number[] = []; while (n >= 0x80) { o.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); } o.push(n); return o; }
const str = (field: number, s: string) => { const b = [...Buffer.from(s)]; return [(field << 3) | 2, ...varint(b.length), ...b]; };
const msg = (field: number, body: number[]) => [(field << 3) | 2, ...varint(body.length), ...body];
const num = (field: number, n: number) => [(field << 3) | 0, ...varint(n)];

function envelope(apiVersion: string, kind: string, raw: number[]): Uint8Array {
  const typeMeta = [...str(1, apiVersion), ...str(2, kind)];
  return Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...msg(1, typeMeta), ...msg(2, raw)]);
}

test('a ConfigMap: metadata, a map with an empty value, a creation time', () => {
  const time = [...num(1, 1767225600)];
  const meta = [...str(1, 'settings'), ...str(2, ''), ...str(3, 'default'), ...msg(8, time), ...msg(11, [...str(1, 'app'), ...str(2, 'web')])];
  const raw = [...msg(1, meta), ...msg(2, [...str(1, 'mode'), ...str(2, 'fast')]), ...msg(2, [...str(1, 'empty')])];
  const out = decodeProtobufObject(envelope('v1', 'ConfigMap', raw));
  assert.deepEqual(out.object, {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'settings', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z', labels: { app: 'web' } },
    data: { mode: 'fast', empty: '' },
  });
});

test('a Service port: int-or-string target ports and a negative-free int', () => {
  const port = [...str(1, 'http'), ...str(2, 'TCP'), ...num(3, 80), ...msg(4, [...num(1, 0), ...num(2, 8080)])];
  const named = [...num(3, 81), ...msg(4, [...num(1, 1), ...str(3, 'web')])];
  const spec = [...msg(1, port), ...msg(1, named)];
  const out = decodeProtobufObject(envelope('v1', 'Service', [...msg(2, spec)])).object as any;
  assert.deepEqual(out.spec.ports, [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }, { port: 81, targetPort: 'web' }]);
});

test('messages are found for grouped kinds; bad prefixes are refused', () => {
  assert.equal(messageFor('apps/v1', 'Deployment'), 'k8s.io.api.apps.v1.Deployment');
  assert.equal(messageFor('rbac.authorization.k8s.io/v1', 'Role'), 'k8s.io.api.rbac.v1.Role');
  assert.equal(messageFor('v1', 'Status'), 'k8s.io.apimachinery.pkg.apis.meta.v1.Status');
  assert.equal(messageFor('example.com/v1', 'Widget'), undefined);
  assert.throws(() => decodeProtobufObject(Uint8Array.from([1, 2, 3, 4, 5])), ProtobufError);
  assert.throws(() => decodeProtobufObject(envelope('example.com/v1', 'Widget', [])), /no protobuf message/);
});

test('durations as Go prints them', () => {
  assert.deepEqual([0, 3e11, 5e8, 3.6e12 + 1.5e9].map(goDuration), ['0s', '5m0s', '500ms', '1h0m1.5s']);
});
