import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureMessage } from '../../../../src/controllers/scheduler/failure-message.ts';
import { filterNode } from '../../../../src/controllers/scheduler/filters.ts';
import { addPod, emptyUsage, nodeInfo, removePod } from '../../../../src/controllers/scheduler/node-info.ts';
import { podView } from '../../../../src/controllers/pod-view.ts';
import { allocatable, podRequests } from '../../../../src/controllers/scheduler/requests.ts';
import { feasibleNodesToFind } from '../../../../src/controllers/scheduler/scheduler.ts';
import { scoreNode } from '../../../../src/controllers/scheduler/scores.ts';

const node = (name: string, extra: Record<string, any> = {}) => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(extra.labels ?? {}) } },
  spec: { taints: extra.taints, unschedulable: extra.unschedulable },
  status: { allocatable: { cpu: extra.cpu ?? '2', memory: extra.memory ?? '4Gi', pods: extra.pods ?? '110' }, conditions: [{ type: 'Ready', status: extra.ready ?? 'True' }] },
});
const pod = (spec: Record<string, any> = {}) => ({ metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'x' }], ...spec } });
const reasons = (p: any, n: any, placed: any[] = []) => { const i = nodeInfo(n); for (const q of placed) addPod(i, q); return filterNode(p, i).map(f => f.reason); };

test('requests: containers summed, init steps as peaks (sidecars carried), overhead added', () => {
  const p = pod({
    containers: [{ name: 'a', resources: { requests: { cpu: '200m', memory: '100Mi' } } }, { name: 'b', resources: { requests: { cpu: '300m' } } }],
    initContainers: [{ name: 'side', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } } }, { name: 'big', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
    overhead: { cpu: '50m' },
  });
  const r = podRequests(p);
  assert.equal(r.get('cpu'), 1150); // max(500+100, 100+1000) + 50
  assert.equal(r.get('memory'), 1024 ** 3);
  assert.equal(podRequests(pod(), true).get('cpu'), 100);
});

test('filters speak as the default scheduler does', () => {
  assert.deepEqual(reasons(pod(), node('n')), []);
  assert.deepEqual(reasons(pod(), node('n', { unschedulable: true })), ['node(s) were unschedulable']);
  assert.deepEqual(reasons(pod({ tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }), node('n', { unschedulable: true })), []);
  assert.deepEqual(reasons(pod(), node('n', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] })), ['node(s) had untolerated taint {dedicated: gpu}']);
  assert.deepEqual(reasons(pod(), node('n', { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] })), []);
  assert.deepEqual(reasons(pod(), node('n', { ready: 'False' })), ['node(s) had untolerated taint {node.kubernetes.io/not-ready: }']);
  assert.deepEqual(reasons(pod({ nodeSelector: { disk: 'ssd' } }), node('n')), ["node(s) didn't match Pod's node affinity/selector"]);
  assert.deepEqual(reasons(pod({ nodeSelector: { disk: 'ssd' } }), node('n', { labels: { disk: 'ssd' } })), []);
  const affinity = (expr: any) => pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [expr] } } } });
  assert.deepEqual(reasons(affinity({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }), node('n', { labels: { zone: 'b' } })), []);
  assert.deepEqual(reasons(affinity({ matchExpressions: [{ key: 'gen', operator: 'Gt', values: ['3'] }] }), node('n', { labels: { gen: '3' } })).length, 1);
  assert.deepEqual(reasons(affinity({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n'] }] }), node('n')), []);
  const big = pod({ containers: [{ name: 'c', resources: { requests: { cpu: '3', memory: '8Gi' } } }] });
  assert.deepEqual(reasons(big, node('n')), ['Insufficient cpu', 'Insufficient memory']);
  assert.deepEqual(reasons(pod(), node('n', { pods: '1' }), [pod()]), ['Too many pods']);
  const web = pod({ containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }] }] });
  assert.deepEqual(reasons(web, node('n'), [web]), ["node(s) didn't have free ports for the requested pod ports"]);
  const udp = pod({ containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 8080, protocol: 'UDP' }] }] });
  assert.deepEqual(reasons(udp, node('n'), [web]), []);
});

test('scores prefer the emptier node and the balanced one', () => {
  const p = pod({ containers: [{ name: 'c', resources: { requests: { cpu: '500m', memory: '1Gi' } } }] });
  const empty = nodeInfo(node('a'));
  const busy = nodeInfo(node('b'));
  addPod(busy, p);
  assert.ok(scoreNode(p, empty) > scoreNode(p, busy));
  const cpuHeavy = nodeInfo(node('c'));
  addPod(cpuHeavy, pod({ containers: [{ name: 'c', resources: { requests: { cpu: '1500m', memory: '100Mi' } } }] }));
  const evenlyUsed = nodeInfo(node('d'));
  addPod(evenlyUsed, pod({ containers: [{ name: 'c', resources: { requests: { cpu: '800m', memory: '1600Mi' } } }] }));
  assert.ok(scoreNode(p, evenlyUsed) > scoreNode(p, cpuHeavy));
});

test('the FailedScheduling message counts and sorts reasons and adds the preemption verdict', () => {
  assert.equal(failureMessage(0, []), 'no nodes available to schedule pods');
  const msg = failureMessage(3, [
    [{ reason: 'node(s) had untolerated taint {node.kubernetes.io/not-ready: }', resolvable: false }],
    [{ reason: 'Insufficient cpu', resolvable: true }],
    [{ reason: 'Insufficient cpu', resolvable: true }, { reason: 'Insufficient memory', resolvable: true }],
  ]);
  assert.equal(msg, '0/3 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.');
});

test('a placed pod counted and then uncounted leaves its node as it was; its view keeps what is counted', () => {
  const placed = pod({
    nodeName: 'a',
    initContainers: [{ name: 'i', resources: { requests: { cpu: '2' } } }],
    containers: [{ name: 'c', image: 'x', env: [{ name: 'E', value: 'v' }], resources: { requests: { cpu: '250m', memory: '64Mi' } }, ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 81 }] }],
  });
  const view = podView(placed);
  const u = emptyUsage();
  addPod(u, pod({ containers: [{ name: 'other', resources: { requests: { cpu: '1' } } }] }));
  const before = structuredClone(u);
  addPod(u, view);
  assert.equal(u.requested.get('cpu'), 3000, 'the init container peak counts');
  assert.deepEqual(u.ports, [{ protocol: 'TCP', hostIP: '0.0.0.0', port: 8080 }]);
  removePod(u, view);
  assert.deepEqual(u, before);
  assert.equal(view.spec!.containers[0]!.env, undefined);
  assert.equal(podView(structuredClone(placed)).spec, view.spec, 'equal specs are shared');
  const unplaced = { ...pod(), metadata: { name: 'q', namespace: 'default', managedFields: [{ manager: 'm' }] } };
  const whole = podView(unplaced);
  assert.equal(whole.spec!.containers[0]!.image, 'x', 'a pod without a node is kept whole');
  assert.equal(whole.metadata.managedFields, undefined);
});

test('enough feasible nodes: all of a small cluster, then kube-scheduler\'s adaptive share, never fewer than 100', () => {
  assert.equal(feasibleNodesToFind(0), 0);
  assert.equal(feasibleNodesToFind(99), 99);
  assert.equal(feasibleNodesToFind(100), 100);
  assert.equal(feasibleNodesToFind(200), 100); // 49 % of 200 is 98
  assert.equal(feasibleNodesToFind(1000), 420); // 50 - 8 %
  assert.equal(feasibleNodesToFind(5000), 500); // 50 - 40 %
  assert.equal(feasibleNodesToFind(20000), 1000); // the 5 % floor
});

test('requests and allocatable are read once per object and agree with a fresh reading', () => {
  const p = pod({ containers: [{ name: 'c', resources: { requests: { cpu: '250m' } } }] });
  assert.equal(podRequests(p), podRequests(p));
  assert.equal(podRequests(p, true).get('memory'), 200 * 1024 * 1024);
  assert.equal(podRequests(structuredClone(p)).get('cpu'), 250);
  const n = node('n', { cpu: '3' });
  assert.equal(allocatable(n), allocatable(n));
  assert.equal(allocatable(n).get('cpu'), 3000);
});
