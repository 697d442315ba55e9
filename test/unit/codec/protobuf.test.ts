import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject, encodeProtobufObject, kindToMessage, messageFor, ProtobufError } from '../../../src/codec/protobuf/envelope.ts';

// hand-assembled wire bytes, independent of the codec
function varint(n: number): number[] { const o: number[] = []; while (n >= 0x80) { o.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); } o.push(n); return o; }
const str = (field: number, s: string) => { const b = [...Buffer.from(s)]; return [(field << 3) | 2, ...varint(b.length), ...b]; };
const msg = (field: number, body: number[]) => [(field << 3) | 2, ...varint(body.length), ...body];
const num = (field: number, n: number) => [(field << 3) | 0, ...varint(n)];

function envelope(apiVersion: string, kind: string, raw: number[]): Uint8Array {
  const typeMeta = [...str(1, apiVersion), ...str(2, kind)];
  return Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...msg(1, typeMeta), ...msg(2, raw)]);
}

test('a hand-built ConfigMap: metadata, a map with an empty value, a creation time, binary data', () => {
  const meta = [...str(1, 'settings'), ...str(2, ''), ...str(3, 'default'), ...msg(8, num(1, 1767225600)), ...msg(11, [...str(1, 'app'), ...str(2, 'web')]), ...num(7, 0)];
  const raw = [...msg(1, meta), ...msg(2, [...str(1, 'mode'), ...str(2, 'fast')]), ...msg(2, str(1, 'empty')), ...msg(3, [...str(1, 'bin'), ...str(2, '\x01\x02')])];
  const out = decodeProtobufObject(envelope('v1', 'ConfigMap', raw));
  assert.equal(out.apiVersion, 'v1');
  assert.equal(out.kind, 'ConfigMap');
  assert.deepEqual(out.object, {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'settings', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z', labels: { app: 'web' } },
    data: { mode: 'fast', empty: '' },
    binaryData: { bin: 'AQI=' },
  });
});

test('zeros of plain omitempty fields are dropped unless asked for; pointer-like zeros stay', () => {
  const raw = [...msg(1, [...str(1, 'a'), ...str(2, ''), ...num(7, 0)]), ...msg(2, [...num(1, 0), ...num(5, 0), ...num(7, 0)])];
  const out = decodeProtobufObject(envelope('apps/v1', 'Deployment', raw)).object;
  assert.deepEqual(out.metadata, { name: 'a' });
  assert.deepEqual(out.spec, { replicas: 0 });
  const kept = decodeProtobufObject(envelope('apps/v1', 'Deployment', raw), { keepZeroValues: true }).object;
  assert.deepEqual(kept.metadata, { name: 'a', generateName: '', generation: 0 });
  assert.deepEqual(kept.spec, { replicas: 0, minReadySeconds: 0, paused: false });
});

test('the ConfigMap encodes to the bytes Kubernetes would write', () => {
  const bytes = encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { y: '2', x: '1' }, unknownField: 1 });
  const raw = [...msg(1, str(1, 'a')), ...msg(2, [...str(1, 'x'), ...str(2, '1')]), ...msg(2, [...str(1, 'y'), ...str(2, '2')])];
  const expected = [0x6b, 0x38, 0x73, 0x00, ...msg(1, [...str(1, 'v1'), ...str(2, 'ConfigMap')]), ...msg(2, raw), ...str(3, ''), ...str(4, '')];
  assert.deepEqual([...bytes], expected);
});

test('Service ports: int-or-string target ports', () => {
  const port = [...str(1, 'http'), ...str(2, 'TCP'), ...num(3, 80), ...msg(4, [...num(1, 0), ...num(2, 8080)])];
  const named = [...num(3, 81), ...msg(4, [...num(1, 1), ...str(3, 'web')])];
  const out = decodeProtobufObject(envelope('v1', 'Service', msg(2, [...msg(1, port), ...msg(1, named)]))).object as any;
  assert.deepEqual(out.spec.ports, [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }, { port: 81, targetPort: 'web' }]);
});

test('negative numbers take ten bytes and come back negative', () => {
  const ten = [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]; // -2
  const raw = [...msg(1, str(1, 'p')), ...msg(2, [0x20, ...ten])]; // spec.terminationGracePeriodSeconds (4)
  const out = decodeProtobufObject(envelope('v1', 'Pod', raw)).object as any;
  assert.equal(out.spec.terminationGracePeriodSeconds, -2);
  const back = encodeProtobufObject(out);
  assert.deepEqual(decodeProtobufObject(back).object, out);
});

test('messages are found for grouped and meta kinds', () => {
  assert.equal(messageFor('apps/v1', 'Deployment'), 'k8s.io.api.apps.v1.Deployment');
  assert.equal(messageFor('rbac.authorization.k8s.io/v1', 'Role'), 'k8s.io.api.rbac.v1.Role');
  assert.equal(messageFor('v1', 'Status'), 'k8s.io.apimachinery.pkg.apis.meta.v1.Status');
  assert.equal(kindToMessage('meta.k8s.io', 'v1', 'PartialObjectMetadataList'), 'k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList');
  assert.equal(kindToMessage('autoscaling', 'v1', 'Scale'), 'k8s.io.api.autoscaling.v1.Scale');
  assert.equal(kindToMessage('coordination.k8s.io', 'v1', 'Lease'), 'k8s.io.api.coordination.v1.Lease');
  assert.equal(kindToMessage('internal.apiserver.k8s.io', 'v1alpha1', 'StorageVersion'), 'k8s.io.api.apiserverinternal.v1alpha1.StorageVersion');
  assert.equal(kindToMessage('flowcontrol.apiserver.k8s.io', 'v1', 'FlowSchema'), 'k8s.io.api.flowcontrol.v1.FlowSchema');
  assert.equal(kindToMessage('apps', 'v1', 'DeleteOptions'), 'k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions');
  assert.equal(kindToMessage('', 'v1', 'PodList'), 'k8s.io.api.core.v1.PodList');
  assert.equal(messageFor('example.com/v1', 'Widget'), undefined);
});

test('bad prefixes, unknown kinds and truncated bodies are refused', () => {
  assert.throws(() => decodeProtobufObject(Uint8Array.from([1, 2, 3, 4, 5])), (e: unknown) => e instanceof ProtobufError && /expected prefix/.test(e.message));
  assert.throws(() => decodeProtobufObject(Buffer.from('{"kind":"ConfigMap"}')), ProtobufError);
  assert.throws(() => decodeProtobufObject(envelope('example.com/v1', 'Widget', [])), /no protobuf message/);
  const good = envelope('v1', 'ConfigMap', msg(1, str(1, 'abc')));
  assert.throws(() => decodeProtobufObject(good.subarray(0, good.length - 2)), ProtobufError);
  assert.throws(() => encodeProtobufObject({ apiVersion: 'example.com/v1', kind: 'Widget' }), ProtobufError);
});
