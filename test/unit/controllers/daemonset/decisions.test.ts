import { test } from 'node:test';
import assert from 'node:assert/strict';
import { daemonPod, isPodUpdated } from '../../../../src/controllers/daemonset/daemon-pods.ts';
import { daemonStatus } from '../../../../src/controllers/daemonset/daemon-status.ts';
import { planManage } from '../../../../src/controllers/daemonset/manage.ts';
import { nodeShouldRunDaemonPod, pinnedToNode, targetNode, withDaemonTolerations, type DaemonSet } from '../../../../src/controllers/daemonset/placement.ts';
import { planRollingUpdate } from '../../../../src/controllers/daemonset/rolling-update.ts';
import { matchesNodeSelectorTerms } from '../../../../src/controllers/scheduler/filters.ts';

const now = Date.parse('2026-01-01T00:10:00Z');
const template = { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'a:1' }] } };

function ds(spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): DaemonSet {
  return { metadata: { name: 'agent', namespace: 'ns', uid: 'ds-uid', generation: 2, ...meta }, spec: { selector: { matchLabels: { app: 'agent' } }, template, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, ...spec } as any };
}
const node = (name: string, labels: Record<string, string> = {}, taints: any[] = []) => ({ metadata: { name, labels }, spec: { taints } });
let seq = 0;
function pod(nodeName: string, hash: string, state: 'ready' | 'pending' | 'failed' | 'succeeded' = 'ready', extra: any = {}) {
  seq++;
  return {
    metadata: { name: `agent-${seq}`, uid: `u${seq}`, creationTimestamp: `2026-01-01T00:0${seq % 10}:00Z`, labels: { app: 'agent', 'controller-revision-hash': hash }, ...extra.metadata },
    spec: { containers: [], nodeName },
    status: { phase: state === 'ready' ? 'Running' : state === 'pending' ? 'Pending' : state === 'failed' ? 'Failed' : 'Succeeded', conditions: [{ type: 'Ready', status: state === 'ready' ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  };
}
const byNode = (pods: any[]) => { const m = new Map<string, any[]>(); for (const p of pods) { const n = targetNode(p)!; m.set(n, [...(m.get(n) ?? []), p]); } return m; };

test('eligible nodes: selector, required affinity, taints, with the daemon tolerations', () => {
  const d = ds({ template: { ...template, spec: { ...template.spec, nodeSelector: { role: 'edge' } } } });
  assert.deepEqual(nodeShouldRunDaemonPod(node('a', { role: 'edge' }), d), { shouldRun: true, shouldContinueRunning: true });
  assert.deepEqual(nodeShouldRunDaemonPod(node('b', { role: 'core' }), d), { shouldRun: false, shouldContinueRunning: false });
  // a NoSchedule taint: no new pod, but one there may stay; NoExecute: neither
  assert.deepEqual(nodeShouldRunDaemonPod(node('c', { role: 'edge' }, [{ key: 'dedicated', effect: 'NoSchedule' }]), d), { shouldRun: false, shouldContinueRunning: true });
  assert.deepEqual(nodeShouldRunDaemonPod(node('c', { role: 'edge' }, [{ key: 'dedicated', effect: 'NoExecute' }]), d), { shouldRun: false, shouldContinueRunning: false });
  // the taints daemon pods tolerate by default
  for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) assert.ok(nodeShouldRunDaemonPod(node('x', { role: 'edge' }, [{ key, effect: 'NoExecute' }]), d).shouldRun, key);
  for (const key of ['node.kubernetes.io/unschedulable', 'node.kubernetes.io/disk-pressure', 'node.kubernetes.io/memory-pressure', 'node.kubernetes.io/pid-pressure']) assert.ok(nodeShouldRunDaemonPod(node('x', { role: 'edge' }, [{ key, effect: 'NoSchedule' }]), d).shouldRun, key);
  const unavailableNet = node('x', { role: 'edge' }, [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }]);
  assert.equal(nodeShouldRunDaemonPod(unavailableNet, d).shouldRun, false);
  assert.equal(nodeShouldRunDaemonPod(unavailableNet, ds({ template: { ...template, spec: { ...template.spec, hostNetwork: true, nodeSelector: { role: 'edge' } } } })).shouldRun, true, 'hostNetwork pods tolerate network-unavailable');
  const affinity = ds({ template: { ...template, spec: { ...template.spec, affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1'] }] }] } } } } } });
  assert.ok(nodeShouldRunDaemonPod(node('z', { zone: 'z1' }), affinity).shouldRun);
  assert.ok(!nodeShouldRunDaemonPod(node('z', { zone: 'z2' }), affinity).shouldRun);
  assert.ok(!nodeShouldRunDaemonPod(node('other'), ds({ template: { ...template, spec: { ...template.spec, nodeName: 'a' } } })).shouldRun);
  // a user's toleration of the same key and effect is replaced, not doubled
  const tol = withDaemonTolerations({ containers: [], tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }, { key: 'mine', operator: 'Exists' }] }).tolerations!;
  assert.equal(tol.length, 7);
  assert.equal(tol[0]!.tolerationSeconds, undefined);
});

test('daemon pods are pinned by a metadata.name term the scheduler matches, labelled with the revision hash', () => {
  const p = daemonPod(ds({}, { annotations: { 'deprecated.daemonset.template.generation': '3' } }), 'h1', 'node-a');
  assert.equal(p.metadata!.generateName, 'agent-');
  assert.deepEqual(p.metadata!.labels, { app: 'agent', 'pod-template-generation': '3', 'controller-revision-hash': 'h1' });
  assert.equal(targetNode(p), 'node-a');
  const terms = p.spec!.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms;
  assert.deepEqual(terms, [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a'] }] }]);
  assert.ok(matchesNodeSelectorTerms(node('node-a'), terms));
  assert.ok(!matchesNodeSelectorTerms(node('node-b'), terms));
  // the template's own required terms are replaced (the controller already checked them)
  const pinned = pinnedToNode({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }] }, preferredDuringSchedulingIgnoredDuringExecution: [] } }, 'n');
  assert.equal(pinned.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms.length, 1);
  assert.deepEqual(pinned.nodeAffinity!.preferredDuringSchedulingIgnoredDuringExecution, []);
  assert.ok(isPodUpdated(p, 'h1', undefined));
  assert.ok(isPodUpdated(p, 'other', '3'), 'the template generation also says so');
  assert.ok(!isPodUpdated(p, 'other', undefined));
});

test('manage: create where missing, delete failed, finished, extra and misplaced pods', () => {
  const d = ds({ template: { ...template, spec: { ...template.spec, nodeSelector: { role: 'edge' } } } });
  const nodes = [node('a', { role: 'edge' }), node('b', { role: 'edge' }), node('c', { role: 'core' }), node('d', { role: 'edge' })];
  const failed = pod('b', 'h', 'failed');
  const onC = pod('c', 'h');
  const older = pod('d', 'h');
  const younger = pod('d', 'h');
  const plan = planManage(d, nodes, byNode([failed, onC, older, younger]), 'h', now);
  assert.deepEqual(plan.nodesNeedingPods, ['a']);
  assert.deepEqual(plan.podsToDelete.map(p => p.metadata!.name).sort(), [failed, onC, younger].map(p => p.metadata.name).sort());
  assert.deepEqual(plan.failed.map(f => f.node), ['b']);
  // an unbound pod pinned to a node that is gone
  const orphan: any = { metadata: { name: 'agent-zz', uid: 'zz' }, spec: { containers: [], affinity: pinnedToNode(undefined, 'gone') }, status: {} };
  assert.deepEqual(planManage(d, nodes, byNode([orphan]), 'h', now).podsToDelete.map(p => p.metadata!.name), ['agent-zz']);
});

test('rolling update without surge: old pods deleted while at most maxUnavailable nodes lack an available pod', () => {
  const nodes = ['a', 'b', 'c', 'd'].map(n => node(n));
  const olds = nodes.map(n => pod(n.metadata.name, 'old'));
  assert.equal(planRollingUpdate(ds(), nodes, byNode(olds), 'new', now).podsToDelete.length, 1);
  assert.equal(planRollingUpdate(ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } } }), nodes, byNode(olds), 'new', now).podsToDelete.length, 2);
  // a node whose new pod is not yet ready uses up the budget
  const midway = [pod('a', 'new', 'pending'), ...olds.slice(1)];
  assert.equal(planRollingUpdate(ds(), nodes, byNode(midway), 'new', now).podsToDelete.length, 0);
  // an old pod that is not available is replaced whatever the budget
  const broken = [pod('a', 'new', 'pending'), pod('b', 'old', 'pending'), ...olds.slice(2)];
  assert.deepEqual(planRollingUpdate(ds(), nodes, byNode(broken), 'new', now).podsToDelete.map(p => targetNode(p)), ['b']);
});

test('rolling update with surge: new pods beside available old ones, old ones go when the new are available', () => {
  const surge = ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } });
  const nodes = ['a', 'b'].map(n => node(n));
  const olds = [pod('a', 'old'), pod('b', 'old')];
  assert.deepEqual(planRollingUpdate(surge, nodes, byNode(olds), 'new', now), { podsToDelete: [], nodesNeedingPods: ['a'] });
  const newOnA = pod('a', 'new', 'pending');
  assert.deepEqual(planRollingUpdate(surge, nodes, byNode([...olds, newOnA]), 'new', now), { podsToDelete: [], nodesNeedingPods: [] }, 'one surge in flight');
  const readyOnA = pod('a', 'new');
  const plan = planRollingUpdate(surge, nodes, byNode([...olds, readyOnA]), 'new', now);
  assert.deepEqual(plan.podsToDelete.map(p => p.metadata!.name), [olds[0]!.metadata.name]);
  // the core loop keeps both pods on a node while the new one is not yet available
  assert.deepEqual(planManage(surge, nodes, byNode([...olds, newOnA]), 'new', now).podsToDelete, []);
  assert.deepEqual(planManage(surge, nodes, byNode([...olds, readyOnA]), 'new', now).podsToDelete.map(p => p.metadata!.name), [olds[0]!.metadata.name]);
});

test('status counts per node, the oldest pod speaking for its node', () => {
  const d = ds({ minReadySeconds: 60, template: { ...template, spec: { ...template.spec, nodeSelector: { role: 'edge' } } } });
  const nodes = [node('a', { role: 'edge' }), node('b', { role: 'edge' }), node('c', { role: 'edge' }), node('x')];
  const justReady = pod('b', 'new');
  justReady.status.conditions[0]!.lastTransitionTime = '2026-01-01T00:09:30Z';
  const st = daemonStatus(d, nodes, byNode([pod('a', 'old'), justReady, pod('x', 'new')]), 'new', now);
  assert.deepEqual(st, { desiredNumberScheduled: 3, currentNumberScheduled: 2, numberMisscheduled: 1, numberReady: 2, updatedNumberScheduled: 1, numberAvailable: 1, numberUnavailable: 2, observedGeneration: 2 });
});
