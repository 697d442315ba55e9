import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planVolumes, podClaims, type VolumeWorld } from '../../../../src/controllers/scheduler/volume-binding.ts';
import { failureMessage } from '../../../../src/controllers/scheduler/failure-message.ts';
import type { Claim, Volume } from '../../../../src/controllers/volumes/claims.ts';

const classes: Record<string, any> = {
  standard: { metadata: { name: 'standard' }, provisioner: 'orch.io/local-path', volumeBindingMode: 'WaitForFirstConsumer' },
  local: { metadata: { name: 'local' }, provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' },
  now: { metadata: { name: 'now' }, provisioner: 'x', volumeBindingMode: 'Immediate' },
};
const claim = (name: string, cls: string, o: { bound?: string; node?: string; size?: string; deleting?: boolean } = {}): Claim => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}`, deletionTimestamp: o.deleting ? '2026-01-01T00:00:00Z' : undefined, annotations: { ...(o.bound ? { 'pv.kubernetes.io/bind-completed': 'yes' } : {}), ...(o.node ? { 'volume.kubernetes.io/selected-node': o.node } : {}) } },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: o.size ?? '1Gi' } }, storageClassName: cls, volumeName: o.bound },
});
const onNode = (name: string, node: string, o: { cls?: string; size?: string } = {}): Volume => ({
  metadata: { name },
  spec: { capacity: { storage: o.size ?? '1Gi' }, accessModes: ['ReadWriteOnce'], storageClassName: o.cls ?? 'local', hostPath: { path: '/x' }, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } } },
  status: { phase: 'Available' },
});
const world = (claims: Claim[], volumes: Volume[] = []): VolumeWorld => ({
  claim: (_ns, n) => claims.find(c => c.metadata.name === n),
  volume: n => volumes.find(v => v.metadata.name === n),
  volumes: () => volumes,
  storageClass: n => classes[n],
});
const pod = (...claims: string[]) => ({ metadata: { name: 'p', namespace: 'default' }, spec: { containers: [], volumes: claims.map(c => ({ name: c, persistentVolumeClaim: { claimName: c } })) } });
const node = (name: string) => ({ metadata: { name, labels: { 'kubernetes.io/hostname': name } } });

test('PreFilter: missing, deleting and unbound immediate claims reject the pod before any node', () => {
  assert.deepEqual(podClaims(pod('nope'), world([])), { error: 'persistentvolumeclaim "nope" not found' });
  assert.deepEqual(podClaims(pod('d'), world([claim('d', 'standard', { deleting: true })])), { error: 'persistentvolumeclaim "d" is being deleted' });
  assert.deepEqual(podClaims(pod('i'), world([claim('i', 'now')])), { error: 'pod has unbound immediate PersistentVolumeClaims' });
  assert.equal(failureMessage(2, [], 'pod has unbound immediate PersistentVolumeClaims'), '0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.');
  const ok = podClaims(pod('b', 'w'), world([claim('b', 'standard', { bound: 'pv-b' }), claim('w', 'standard')]));
  assert.ok(!('error' in ok));
  assert.deepEqual([ok.bound.map(c => c.metadata.name), ok.delayed.map(c => c.metadata.name)], [['b'], ['w']]);
});

test('Filter: a bound claim\'s volume must be reachable from the node', () => {
  const w = world([claim('b', 'local', { bound: 'pv-b' })], [onNode('pv-b', 'n2')]);
  const claims = podClaims(pod('b'), w) as any;
  assert.deepEqual(planVolumes(claims, node('n1'), w), { failure: { reason: 'node(s) had volume node affinity conflict', resolvable: false } });
  assert.deepEqual(planVolumes(claims, node('n2'), w), { plan: { bind: [], provision: [] } });
  const missing = world([claim('b', 'local', { bound: 'gone' })]);
  assert.equal((planVolumes(podClaims(pod('b'), missing) as any, node('n1'), missing) as any).failure.reason, 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)');
});

test('Filter: a waiting claim takes a free volume on the node, else a provisioner, else the node does not fit', () => {
  const w = world([claim('w', 'local')], [onNode('pv-1', 'n1'), onNode('pv-2', 'n2', { size: '5Gi' })]);
  const claims = podClaims(pod('w'), w) as any;
  const on1 = planVolumes(claims, node('n1'), w) as any;
  assert.deepEqual(on1.plan.bind.map((b: any) => b.volume.metadata.name), ['pv-1']);
  assert.deepEqual(planVolumes(claims, node('n3'), w), { failure: { reason: "node(s) didn't find available persistent volumes to bind", resolvable: false } });
  // a volume promised to another pod's claim is not offered again
  assert.ok('failure' in planVolumes(claims, node('n1'), { ...w, assumed: new Set(['pv-1']) }));
  const p = world([claim('s', 'standard')]);
  assert.deepEqual((planVolumes(podClaims(pod('s'), p) as any, node('n1'), p) as any).plan.provision.map((c: Claim) => c.metadata.name), ['s']);
  // provisioning already asked for on another node
  const elsewhere = world([claim('s', 'standard', { node: 'n2' })]);
  assert.ok('failure' in planVolumes(podClaims(pod('s'), elsewhere) as any, node('n1'), elsewhere));
  assert.ok('plan' in planVolumes(podClaims(pod('s'), elsewhere) as any, node('n2'), elsewhere));
});

test('Filter: two claims of one pod never take the same volume; the larger chooses first', () => {
  const w = world([claim('small', 'local', { size: '1Gi' }), claim('large', 'local', { size: '4Gi' })], [onNode('v5', 'n1', { size: '5Gi' }), onNode('v2', 'n1', { size: '2Gi' })]);
  const r = planVolumes(podClaims(pod('small', 'large'), w) as any, node('n1'), w) as any;
  assert.deepEqual(r.plan.bind.map((b: any) => [b.claim.metadata.name, b.volume.metadata.name]), [['large', 'v5'], ['small', 'v2']]);
  const one = world([claim('a', 'local'), claim('b', 'local')], [onNode('v', 'n1')]);
  assert.ok('failure' in planVolumes(podClaims(pod('a', 'b'), one) as any, node('n1'), one));
});

test('PreFilter: a generic ephemeral volume waits for its claim, which must be the pod\'s own', () => {
  const p = { metadata: { name: 'p', namespace: 'default', uid: 'pod-uid' }, spec: { containers: [], volumes: [{ name: 'v', ephemeral: { volumeClaimTemplate: { spec: {} } } }] } };
  assert.deepEqual(podClaims(p as never, world([])), { error: 'waiting for ephemeral volume controller to create the persistentvolumeclaim "p-v"' });
  const foreign = claim('p-v', 'standard');
  assert.deepEqual(podClaims(p as never, world([foreign])), { error: 'persistentvolumeclaim "p-v" was not created for the pod' });
  const own = { ...foreign, metadata: { ...foreign.metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'pod-uid', controller: true }] } };
  assert.ok('delayed' in podClaims(p as never, world([own as Claim])));
});
