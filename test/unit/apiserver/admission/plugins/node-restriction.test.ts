// NodeRestriction through the handlers, as node n1: its own Node only (no taints, only the
// labels a kubelet owns), pods bound to it only (status without labels, eviction, delete),
// mirror pods only as Kubernetes allows them, leases and tokens of its own; everyone else
// untouched. Messages are kube-apiserver's.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../../support/fake-request.ts';
import { nodeRestriction } from '../../../../../src/apiserver/admission/plugins/node-restriction.ts';

let api: TestApi;
const n1 = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
let n1Uid = '';
const pods = '/api/v1/namespaces/default/pods';
const pod = (name: string, node: string) => ({ metadata: { name, labels: { app: 'a' } }, spec: { nodeName: node, containers: [{ name: 'c', image: 'i' }] } });

before(async () => {
  api = await testApi({ admission: ['NodeRestriction'] });
  for (const name of ['n1', 'n2']) {
    const r = await api.request('POST', '/api/v1/nodes', { body: { metadata: { name, labels: { 'kubernetes.io/hostname': name } } } });
    assert.equal(r.status, 201);
    if (name === 'n1') n1Uid = r.json().metadata.uid;
  }
  for (const [name, node] of [['on1', 'n1'], ['on2', 'n2']]) assert.equal((await api.request('POST', pods, { body: pod(name!, node!) })).status, 201);
});
after(() => api.close());

const asNode = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => api.request(method, path, { body, user: n1, headers });
async function refused(r: Promise<{ status: number; json(): any }>, message: string, code = 403) {
  const res = await r;
  assert.equal(res.status, code);
  assert.equal(res.json().message, message);
}
const merge = { 'content-type': 'application/merge-patch+json' };

test('its own Node: other nodes refused; taints and non-kubelet labels refused; kubelet labels allowed', async () => {
  await refused(asNode('PATCH', '/api/v1/nodes/n2', { metadata: { labels: { x: 'y' } } }, merge), 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
  await refused(asNode('DELETE', '/api/v1/nodes/n2'), 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
  await refused(asNode('POST', '/api/v1/nodes', { metadata: { name: 'n3' } }), 'nodes "n3" is forbidden: node "n1" is not allowed to modify node "n3"');
  await refused(asNode('PATCH', '/api/v1/nodes/n1', { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }, merge), 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints');
  await refused(asNode('PATCH', '/api/v1/nodes/n1', { metadata: { labels: { 'node-restriction.kubernetes.io/pool': 'x', 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/hostname': 'n1' } } }, merge),
    'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool, node-role.kubernetes.io/control-plane');
  const ok = await asNode('PATCH', '/api/v1/nodes/n1', { metadata: { labels: { 'topology.kubernetes.io/zone': 'z', 'node.kubernetes.io/exclude-from-external-load-balancers': '', 'example.com/team': 'x' } } }, merge);
  assert.equal(ok.status, 200, JSON.stringify(ok.json()));
  // a node registering itself with a label it may not set
  assert.equal((await api.request('DELETE', '/api/v1/nodes/n1')).status, 200);
  await refused(asNode('POST', '/api/v1/nodes', { metadata: { name: 'n1', labels: { 'kubernetes.io/role': 'master' } } }), 'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: kubernetes.io/role');
  const back = await asNode('POST', '/api/v1/nodes', { metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1' } } });
  assert.equal(back.status, 201);
  n1Uid = back.json().metadata.uid;
});

test('pods bound to it: status without labels, eviction and delete; others refused', async () => {
  const cur = (await api.request('GET', `${pods}/on1`)).json();
  assert.equal((await asNode('PUT', `${pods}/on1/status`, { ...cur, status: { ...cur.status, phase: 'Running' } })).status, 200);
  // (orch's status writes keep the stored labels before admission sees them, so the label rule is asked directly)
  const latest = (await api.request('GET', `${pods}/on1`)).json();
  const plugin = nodeRestriction({ registry: api.deps.registry, catalog: api.deps.catalog, now: () => new Date(), random: Math.random });
  const attrs = { operation: 'UPDATE' as const, resource: api.deps.catalog.lookup('', 'v1', 'pods')!, subresource: 'status', namespace: 'default', name: 'on1',
    object: { ...latest, metadata: { ...latest.metadata, labels: { app: 'b' } } }, oldObject: latest, user: n1, dryRun: false, warn() {}, annotate() {} };
  await assert.rejects(async () => plugin.admit!(attrs), { message: 'pods "on1" is forbidden: node "n1" cannot update labels through pod status' });
  const other = (await api.request('GET', `${pods}/on2`)).json();
  await refused(asNode('PUT', `${pods}/on2/status`, other), 'pods "on2" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself');
  await refused(asNode('POST', `${pods}/on2/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'on2' } }), 'pods "on2" is forbidden: node n1 can only evict pods with spec.nodeName set to itself');
  await refused(asNode('DELETE', `${pods}/on2`), 'pods "on2" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself');
  await refused(asNode('PATCH', `${pods}/on1`, { metadata: { labels: { x: 'y' } } }, merge), 'pods "on1" is forbidden: unexpected operation "UPDATE", node "n1" can only create and delete mirror pods');
  await refused(asNode('PATCH', `${pods}/on1/ephemeralcontainers`, { spec: {} }, merge), 'pods "on1" is forbidden: unexpected pod subresource "ephemeralcontainers", only \'status\' and \'eviction\' are allowed');
  assert.equal((await asNode('DELETE', `${pods}/on1`)).status, 200);
});

test('mirror pods: only its own, owned by its Node as controller, referencing nothing', async () => {
  const mirror = (over: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) => ({
    metadata: { name: 'static-n1', annotations: { 'kubernetes.io/config.mirror': 'h' }, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: n1Uid, controller: true }], ...over },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }], ...spec },
  });
  const cases: [unknown, string][] = [
    [pod('plain', 'n1'), 'pods "plain" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods'],
    [mirror({}, { nodeName: 'n2' }), 'node "n1" can only create pods with spec.nodeName set to itself'],
    [mirror({ ownerReferences: [] }), 'node "n1" can only create pods with an owner reference set to itself'],
    [mirror({ ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: n1Uid }] }), 'node "n1" can only create pods with a controller owner reference set to itself'],
    [mirror({ ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'other', controller: true }] }), `node n1 UID mismatch: expected other got ${n1Uid}`],
    [mirror({}, { serviceAccountName: 'default' }), 'node "n1" can not create pods that reference a service account'],
    [mirror({}, { volumes: [{ name: 'v', configMap: { name: 'x' } }] }), 'node "n1" can not create pods that reference configmaps'],
    [mirror({}, { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'x' } }] }), 'node "n1" can not create pods that reference persistentvolumeclaims'],
  ];
  for (const [body, why] of cases) {
    const r = await asNode('POST', pods, body);
    assert.equal(r.status, 403, why);
    assert.ok(r.json().message.endsWith(why), `${r.json().message} / ${why}`);
  }
  assert.equal((await asNode('POST', pods, mirror())).status, 201);
});

test('leases in kube-node-lease named after it; tokens only for pods bound to it', async () => {
  await refused(asNode('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { metadata: { name: 'n1' } }), 'leases.coordination.k8s.io "n1" is forbidden: can only access leases in the "kube-node-lease" system namespace');
  await refused(asNode('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', { metadata: { name: 'n2' } }), 'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node');
  assert.equal((await asNode('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', { metadata: { name: 'n1' } })).status, 201);
  const on2 = (await api.request('GET', `${pods}/on2`)).json();
  const token = (ref?: Record<string, unknown>) => asNode('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [], ...(ref ? { boundObjectRef: ref } : {}) } });
  await refused(token(), 'serviceaccounts "default" is forbidden: node requested token not bound to a pod');
  await refused(token({ apiVersion: 'v1', kind: 'Pod', name: 'on2' }), 'serviceaccounts "default" is forbidden: node requested token with a pod binding without a uid');
  await refused(token({ apiVersion: 'v1', kind: 'Pod', name: 'on2', uid: 'x' }), 'serviceaccounts "default" is forbidden: the UID in the bound object reference (x) does not match the UID in record. The object might have been deleted and then recreated');
  await refused(token({ apiVersion: 'v1', kind: 'Pod', name: 'on2', uid: on2.metadata.uid }), 'serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node');
});

test('anyone but a node is untouched', async () => {
  assert.equal((await api.request('PATCH', '/api/v1/nodes/n2', { body: { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }, headers: merge })).status, 200);
});
