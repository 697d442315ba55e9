import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { applyMask, decodeFieldMask, FieldMaskError, maskFromMetadata, parseMask } from '../../../../src/agent/podinfo/field-mask.ts';

const pod = {
  metadata: { name: 'web', namespace: 'default', uid: 'u1', labels: { app: 'web' } },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'v', emptyDir: {} }] },
  status: { phase: 'Running', podIP: '10.0.0.5', podIPs: [{ ip: '10.0.0.5' }], startTime: '2026-11-27T14:00:00Z', conditions: [{ type: 'Ready', status: 'True' }] },
};

const fieldMask = (paths: string[]) => {
  const w = new BinaryWriter();
  for (const p of paths) w.tag(1, WireType.LengthDelimited).string(p);
  return w.finish();
};

test('no mask, or an empty one, keeps the whole pod', () => {
  assert.equal(parseMask([]), undefined);
  assert.equal(parseMask(['', ' , ']), undefined);
  assert.equal(applyMask(pod, undefined), pod);
});

test('status.phase and status.podIPs keep only those fields', () => {
  const out = applyMask(pod, parseMask(['status.phase', 'status.podIPs']));
  assert.deepEqual(out, { status: { phase: 'Running', podIPs: [{ ip: '10.0.0.5' }] } });
});

test('a path covers everything below it; a shorter path wins over a longer one', () => {
  assert.deepEqual(applyMask(pod, parseMask(['metadata'])), { metadata: pod.metadata });
  assert.deepEqual(applyMask(pod, parseMask(['metadata.name', 'metadata'])), { metadata: pod.metadata });
  assert.deepEqual(applyMask(pod, parseMask(['metadata', 'metadata.name'])), { metadata: pod.metadata });
  assert.deepEqual(applyMask(pod, parseMask(['metadata.labels', 'spec.nodeName'])), { metadata: { labels: { app: 'web' } }, spec: { nodeName: 'n1' } });
});

test('fields the mask names but the pod lacks stay absent; the pod is not changed', () => {
  const before = JSON.stringify(pod);
  assert.deepEqual(applyMask(pod, parseMask(['status.nominatedNodeName', 'spec.hostname'])), { spec: {} , status: {} });
  assert.equal(JSON.stringify(pod), before);
});

test('JSON form: paths joined by commas', () => {
  assert.deepEqual(applyMask(pod, maskFromMetadata([], ['status.phase,metadata.uid'])), { metadata: { uid: 'u1' }, status: { phase: 'Running' } });
});

test('binary form: a serialized google.protobuf.FieldMask, as a Buffer or base64 text', () => {
  const bytes = fieldMask(['status.phase', 'status.podIPs']);
  assert.deepEqual(decodeFieldMask(bytes), ['status.phase', 'status.podIPs']);
  const want = { status: { phase: 'Running', podIPs: [{ ip: '10.0.0.5' }] } };
  assert.deepEqual(applyMask(pod, maskFromMetadata([Buffer.from(bytes)], [])), want);
  assert.deepEqual(applyMask(pod, maskFromMetadata([Buffer.from(bytes).toString('base64')], [])), want);
  assert.throws(() => decodeFieldMask(Uint8Array.of(0x0a, 0x05, 0x61)), FieldMaskError);
});

test('paths are checked against v1.Pod: unknown fields, traversal of lists, maps and scalars are refused', () => {
  for (const bad of ['status.nope', 'nope', 'spec.containers.name', 'metadata.labels.app', 'status.phase.x', 'status..phase', 'status.startTime.seconds', 'Status.phase']) {
    assert.throws(() => parseMask([bad]), (err: Error) => err instanceof FieldMaskError && err.message.includes(`"${bad}"`), bad);
  }
  // lists, maps and well-known values may end a path
  assert.doesNotThrow(() => parseMask(['spec.containers', 'metadata.labels', 'status.startTime', 'spec.securityContext.runAsUser']));
});
