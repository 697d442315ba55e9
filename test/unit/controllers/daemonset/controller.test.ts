import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../../src/api/log.ts';
import { startDaemonSetController } from '../../../../src/controllers/daemonset/controller.ts';
import { autoReady, eventually, startInProcessApi } from '../in-process-api.ts';

const ns = 'default';
const dsPath = `/apis/apps/v1/namespaces/${ns}/daemonsets`;
const podsPath = `/api/v1/namespaces/${ns}/pods`;
const template = { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'registry.local/agent:1' }] } };

const node = (name: string, extra: any = {}) => ({ metadata: { name, labels: { 'kubernetes.io/hostname': name, ...extra.labels } }, spec: { taints: extra.taints } });
const pinnedTo = (p: any) => p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0];
const live = async (client: any) => (await client.list(podsPath)).items.filter((p: any) => !p.metadata.deletionTimestamp);

test('one pod per eligible node, pinned by node affinity with the daemon tolerations; a rolling update replaces them; a node leaving the selector loses its pod', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  await client.create('/api/v1/nodes', node('a', { labels: { role: 'edge' } }));
  await client.create('/api/v1/nodes', node('b', { labels: { role: 'edge' }, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] }));
  await client.create('/api/v1/nodes', node('c', { labels: { role: 'edge' }, taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }));
  await client.create('/api/v1/nodes', node('d', { labels: { role: 'core' } }));
  const ctl = startDaemonSetController(client, silentLogger);
  t.after(() => ctl.stop());
  const ds = await client.create(dsPath, { metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: { ...template, spec: { ...template.spec, nodeSelector: { role: 'edge' } } } } });

  const pods = await eventually(async () => { const l = await live(client); return l.length === 2 && l; }, 'two pods');
  assert.deepEqual(pods.map(pinnedTo).sort(), ['a', 'b'], 'not on c (untolerated taint) nor d (selector)');
  const p = pods[0];
  assert.match(p.metadata.name, /^agent-[a-z0-9]{5}$/);
  assert.equal(p.spec.nodeName, undefined, 'the scheduler binds it');
  assert.deepEqual(p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key, 'metadata.name');
  assert.deepEqual(p.spec.tolerations.map((x: any) => `${x.key}:${x.effect}`), [
    'node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/disk-pressure:NoSchedule',
    'node.kubernetes.io/memory-pressure:NoSchedule', 'node.kubernetes.io/pid-pressure:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule',
  ]);
  assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: ds.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  const hash1 = p.metadata.labels['controller-revision-hash'];
  assert.ok(hash1);
  const st1 = await eventually(async () => { const s = (await client.get(`${dsPath}/agent`)).status; return s?.currentNumberScheduled === 2 && s; }, 'status');
  assert.deepEqual({ ...st1 }, { currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 0, observedGeneration: 1, updatedNumberScheduled: 2, numberUnavailable: 2 });

  const nodes = autoReady(client);
  t.after(() => nodes.stop());
  await eventually(async () => (await client.get(`${dsPath}/agent`)).status?.numberAvailable === 2, 'two available');
  const revs = (await client.list(`/apis/apps/v1/namespaces/${ns}/controllerrevisions`)).items;
  assert.equal(revs.length, 1);
  assert.equal(revs[0].metadata.name, `agent-${hash1}`);
  assert.equal(revs[0].metadata.labels['controller-revision-hash'], hash1);

  // a new template rolls out one node at a time (maxUnavailable 1)
  await client.patch(`${dsPath}/agent`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'registry.local/agent:2' }] } } } }, 'application/strategic-merge-patch+json');
  const st2 = await eventually(async () => { const s = (await client.get(`${dsPath}/agent`)).status; return s?.observedGeneration === 2 && s.updatedNumberScheduled === 2 && s.numberAvailable === 2 && s; }, 'rolled out');
  assert.equal(st2.desiredNumberScheduled, 2);
  const after = await live(client);
  assert.equal(after.length, 2);
  assert.ok(after.every((x: any) => x.metadata.labels['controller-revision-hash'] !== hash1));
  assert.equal((await client.list(`/apis/apps/v1/namespaces/${ns}/controllerrevisions`)).items.length, 2);
  const deletes = await eventually(async () => { const d = (await client.list(`/api/v1/namespaces/${ns}/events`)).items.filter((e: any) => e.reason === 'SuccessfulDelete'); return d.length >= 2 && d; }, 'delete events');
  assert.equal(deletes.length, 2);
  assert.match(deletes[0].message, /^Deleted pod: agent-[a-z0-9]{5}$/);

  // node b leaves the selector: its pod goes
  await client.patch('/api/v1/nodes/b', { metadata: { labels: { role: 'core' } } });
  await eventually(async () => { const l = await live(client); return l.length === 1 && pinnedTo(l[0]) === 'a'; }, 'pod on b deleted');
  await eventually(async () => (await client.get(`${dsPath}/agent`)).status?.desiredNumberScheduled === 1, 'desired 1');
});

test('maxSurge: the new pod starts beside the old one, which goes once the new one is available', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  await client.create('/api/v1/nodes', node('a'));
  const ctl = startDaemonSetController(client, silentLogger);
  t.after(() => ctl.stop());
  await client.create(dsPath, { metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } } });
  const [first] = await eventually(async () => { const l = await live(client); return l.length === 1 && l; }, 'one pod');
  const nodes = autoReady(client);
  t.after(() => nodes.stop());
  await eventually(async () => (await client.get(`${dsPath}/agent`)).status?.numberAvailable === 1, 'available');
  await client.patch(`${dsPath}/agent`, { spec: { template: { metadata: { labels: { app: 'agent', v: '2' } } } } }, 'application/strategic-merge-patch+json');
  await eventually(async () => { const l = await live(client); return l.length === 1 && l[0].metadata.uid !== first.metadata.uid && l[0].metadata.labels.v === '2'; }, 'replaced');
  // events are recorded after the writes they describe, so wait for the third
  const events = await eventually(async () => { const l = (await client.list(`/api/v1/namespaces/${ns}/events`)).items; return l.length >= 3 && l; }, 'three events');
  const creates = events.filter((e: any) => e.reason === 'SuccessfulCreate').length;
  assert.equal(creates, 2, JSON.stringify(events.map((e: any) => [e.reason, e.message, e.metadata.name])) + JSON.stringify((await client.list(podsPath)).items.map((p: any) => [p.metadata.name, p.metadata.labels, p.metadata.deletionTimestamp, p.status])));
  // the old pod was deleted only after the new one existed
  const order = events.filter((e: any) => e.reason !== 'FailedDaemonPod').map((e: any) => e.reason);
  assert.deepEqual(order, ['SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulDelete']);
});

test('a failed daemon pod is deleted with a FailedDaemonPod event and made again; pods carry the template generation', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  await client.create('/api/v1/nodes', node('a'));
  const ctl = startDaemonSetController(client, silentLogger);
  t.after(() => ctl.stop());
  await client.create(dsPath, { metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template } });
  const [first] = await eventually(async () => { const l = await live(client); return l.length === 1 && l; }, 'one pod');
  assert.equal(first.metadata.labels['pod-template-generation'], '1');
  first.status = { phase: 'Failed' };
  await client.update(`${podsPath}/${first.metadata.name}/status`, first);
  const [second] = await eventually(async () => { const l = await live(client); return l.length === 1 && l[0].metadata.uid !== first.metadata.uid && l; }, 'a new pod');
  assert.equal(pinnedTo(second), 'a');
  const warning = await eventually(async () => (await client.list(`/api/v1/namespaces/${ns}/events`)).items.find((e: any) => e.reason === 'FailedDaemonPod'), 'FailedDaemonPod event');
  assert.equal(warning.type, 'Warning');
  assert.equal(warning.message, `Found failed daemon pod ${ns}/${first.metadata.name} on node a, will try to kill it`);
});
