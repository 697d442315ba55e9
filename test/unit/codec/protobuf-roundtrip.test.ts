import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject, encodeProtobufObject } from '../../../src/codec/protobuf/envelope.ts';
import { samplePod } from './protobuf-samples.ts';

function roundTrip(obj: Record<string, unknown>): Record<string, unknown> {
  const bytes = encodeProtobufObject(obj);
  assert.deepEqual([...bytes.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
  return decodeProtobufObject(bytes).object;
}

test('ConfigMap round trip, with immutable and binary data', () => {
  const cm = {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'a', namespace: 'default', uid: '0d6f2d4e-1111-4c1e-9a31-2f1e2c3d4e5f', resourceVersion: '42', annotations: { 'x/y': 'z' } },
    data: { 'k.txt': 'line1\nline2 ünïcode ✓', empty: '' }, binaryData: { b: 'AAEC/w==' }, immutable: false,
  };
  assert.deepEqual(roundTrip(cm), cm);
});

test('Pod round trip: quantities, int-or-string ports, inlined probe handlers and volume sources, times', () => {
  const pod = samplePod();
  assert.deepEqual(roundTrip(pod), pod);
});

test('Deployment round trip keeps replicas: 0 and percent surges', () => {
  const d = {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', generation: 3, labels: { app: 'web' } },
    spec: {
      replicas: 0, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
      revisionHistoryLimit: 10, progressDeadlineSeconds: 600,
    },
    status: { observedGeneration: 3, replicas: 2, conditions: [{ type: 'Available', status: 'True', lastUpdateTime: '2024-05-01T10:00:00Z', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'MinimumReplicasAvailable', message: 'ok' }] },
  };
  assert.deepEqual(roundTrip(d), d);
});

test('Service round trip', () => {
  const svc = {
    apiVersion: 'v1', kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      type: 'NodePort', selector: { app: 'web' }, clusterIP: '10.0.0.12', clusterIPs: ['10.0.0.12'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack',
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 'http', nodePort: 30080 }, { name: 'metrics', protocol: 'TCP', port: 9090, targetPort: 9090 }],
      sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
    },
    status: { loadBalancer: {} },
  };
  assert.deepEqual(roundTrip(svc), svc);
});

test('Status round trip', () => {
  const st = {
    apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'configmaps "a" already exists', reason: 'AlreadyExists', code: 409,
    details: { name: 'a', kind: 'configmaps', causes: [{ reason: 'FieldValueInvalid', message: 'bad', field: 'metadata.name' }], retryAfterSeconds: 1 },
  };
  assert.deepEqual(roundTrip(st), st);
});

test('Scale round trip', () => {
  const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 5 }, status: { replicas: 3, selector: 'app=web' } };
  assert.deepEqual(roundTrip(scale), scale);
});

test('List round trip: list metadata and items without their own type', () => {
  const list = {
    apiVersion: 'v1', kind: 'ConfigMapList',
    metadata: { resourceVersion: '77', continue: 'abc', remainingItemCount: 4 },
    items: [{ metadata: { name: 'a' }, data: { x: '1' } }, { metadata: { name: 'b' } }],
  };
  assert.deepEqual(roundTrip(list), list);
});

test('Event and Lease round trip with microsecond times; ClusterRole with its aggregation rule', () => {
  const ev = {
    apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e1', namespace: 'default' },
    eventTime: '2024-05-01T10:00:00.123456Z', series: { count: 2, lastObservedTime: '2024-05-01T10:00:01.000001Z' },
    reportingController: 'kubelet', reportingInstance: 'node-1', action: 'Pull', reason: 'Pulled', regarding: { kind: 'Pod', name: 'p' }, type: 'Normal',
  };
  assert.deepEqual(roundTrip(ev), ev);
  const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'n1', namespace: 'kube-node-lease' }, spec: { holderIdentity: 'n1', leaseDurationSeconds: 40, renewTime: '2024-05-01T10:00:00.500000Z' } };
  assert.deepEqual(roundTrip(lease), lease);
  const role = {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'view' },
    rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example/aggregate-to-view': 'true' } }] },
  };
  assert.deepEqual(roundTrip(role), role);
});

test('JSON fields the message lacks are dropped; nulls are not written', () => {
  const out = roundTrip({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', creationTimestamp: null, bogus: 1 }, data: null, extra: { x: 1 } });
  assert.deepEqual(out, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
});

test('watch events: length-prefixed bare WatchEvent holding a full protobuf object', async () => {
  const { encodeProtobufWatchEvent, decodeProtobufWatchEvent } = await import('../../../src/codec/protobuf/watch.ts');
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '5' }, data: { x: '1' } };
  const frame = encodeProtobufWatchEvent('ADDED', cm);
  const len = Buffer.from(frame).readUInt32BE(0);
  assert.equal(len, frame.length - 4);
  assert.deepEqual([...frame.subarray(4, 11)], [0x0a, 5, ...Buffer.from('ADDED')]);
  const two = Buffer.concat([frame, encodeProtobufWatchEvent('ERROR', { apiVersion: 'v1', kind: 'Status', status: 'Failure', code: 410, reason: 'Expired' })]);
  const first = decodeProtobufWatchEvent(two);
  assert.deepEqual({ type: first.type, object: first.object }, { type: 'ADDED', object: cm });
  const second = decodeProtobufWatchEvent(two.subarray(first.length));
  assert.deepEqual(second.object, { apiVersion: 'v1', kind: 'Status', status: 'Failure', code: 410, reason: 'Expired' });
});
