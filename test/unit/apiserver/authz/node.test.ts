import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeGraph, podReferences } from '../../../../src/apiserver/authz/node-graph.ts';
import { nodeAuthorize, nodeIdentity } from '../../../../src/apiserver/authz/node.ts';
import type { Attributes } from '../../../../src/apiserver/authz/attributes.ts';

const n1 = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const at = (over: Partial<Attributes>): Attributes => ({ user: n1, verb: 'get', isResourceRequest: true, path: '', apiGroup: '', resource: 'secrets', subresource: '', namespace: 'dev', name: '', ...over });
const pod = (name: string, node: string | undefined, spec: Record<string, unknown> = {}) => ({ metadata: { name, namespace: 'dev' }, spec: { nodeName: node, ...spec } });

test('a pod\'s references: volumes, projected sources, env, envFrom, pull secrets, its service account, ephemeral claims', () => {
  const refs = podReferences(pod('p', 'n1', {
    serviceAccountName: 'robot',
    imagePullSecrets: [{ name: 'pull' }],
    volumes: [{ name: 'a', secret: { secretName: 's1' } }, { name: 'b', configMap: { name: 'c1' } }, { name: 'c', persistentVolumeClaim: { claimName: 'data' } }, { name: 'e', ephemeral: {} }, { name: 'f', projected: { sources: [{ secret: { name: 's2' } }, { configMap: { name: 'c2' } }] } }],
    containers: [{ name: 'x', env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 's3', key: 'k' } } }], envFrom: [{ configMapRef: { name: 'c3' } }] }],
  })).sort();
  assert.deepEqual(refs, ['configmaps/dev/c1', 'configmaps/dev/c2', 'configmaps/dev/c3', 'persistentvolumeclaims/dev/data', 'persistentvolumeclaims/dev/p-e', 'secrets/dev/pull', 'secrets/dev/s1', 'secrets/dev/s2', 'secrets/dev/s3', 'serviceaccounts/dev/robot']);
});

test('a node reads what its own pods use, and nothing once they are gone or moved', () => {
  const g = new NodeGraph();
  const p = pod('p', 'n1', { volumes: [{ name: 'a', secret: { secretName: 's1' } }] });
  g.apply(p, false);
  g.apply(pod('q', 'n2', { volumes: [{ name: 'a', secret: { secretName: 's2' } }] }), false);
  assert.equal(nodeAuthorize(g, at({ name: 's1' })).decision, 'allow');
  assert.equal(nodeAuthorize(g, at({ name: 's1', verb: 'watch' })).decision, 'allow');
  assert.deepEqual(nodeAuthorize(g, at({ name: 's2' })), { decision: 'no-opinion', reason: "no relationship found between node 'n1' and this object" });
  assert.equal(nodeAuthorize(g, at({ verb: 'list' })).decision, 'no-opinion', 'no listing of every secret');
  assert.equal(nodeAuthorize(g, at({ name: 's1', verb: 'update' })).reason, 'can only read resources of this type');
  assert.equal(nodeAuthorize(g, at({ resource: 'serviceaccounts', subresource: 'token', verb: 'create', name: 'default' })).decision, 'allow');
  g.apply(p, true);
  assert.equal(nodeAuthorize(g, at({ name: 's1' })).decision, 'no-opinion');
});

test('leases: only its own in kube-node-lease; other resources by the system:node rules; others are not nodes', () => {
  const g = new NodeGraph();
  const lease = (over: Partial<Attributes>) => nodeAuthorize(g, at({ apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'n1', verb: 'update', ...over }));
  assert.equal(lease({}).decision, 'allow');
  assert.equal(lease({ name: 'n2' }).reason, 'can only access node lease with the same name as the requesting node');
  assert.equal(lease({ namespace: 'default' }).reason, 'can only access leases in the kube-node-lease namespace');
  assert.equal(nodeAuthorize(g, at({ resource: 'pods', verb: 'list', namespace: '' })).decision, 'allow');
  assert.equal(nodeAuthorize(g, at({ resource: 'pods', subresource: 'status', verb: 'patch', name: 'p' })).decision, 'allow');
  assert.equal(nodeAuthorize(g, at({ resource: 'nodes', subresource: 'status', verb: 'patch', name: 'n1', namespace: '' })).decision, 'allow');
  assert.equal(nodeAuthorize(g, at({ resource: 'deployments', apiGroup: 'apps', verb: 'list' })).decision, 'no-opinion');
  assert.equal(nodeIdentity({ name: 'system:node:n1', groups: [] }), undefined);
  assert.equal(nodeIdentity({ name: 'jane', groups: ['system:nodes'] }), undefined);
  assert.equal(nodeAuthorize(g, at({ user: { name: 'system:node:', groups: ['system:nodes'] } })).reason, 'unknown node for user "system:node:"');
});

test('after a watch restarts, pods it no longer lists give their node nothing', () => {
  const g = new NodeGraph();
  g.apply(pod('p', 'n1', { volumes: [{ name: 'a', secret: { secretName: 's1' } }] }), false);
  g.retainOnly(new Set(['dev/other']));
  assert.equal(nodeAuthorize(g, at({ name: 's1' })).decision, 'no-opinion');
});
