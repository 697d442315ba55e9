// The enforcer against a real API server in this process, computing only (as on the simulated
// runtime): its ruleset follows pods, namespaces and policies as they are written.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/api/log.ts';
import { startEnforcer, tableName } from '../../../src/network-policy/enforcer.ts';
import { eventually, startInProcessApi } from '../support/in-process-api.ts';
import { verdict } from './evaluate.ts';

test('computing only, the ruleset follows pods, labels, namespaces and policies through the API', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const enforcer = await startEnforcer({ client, node: 'n1', log: silentLogger, apply: false, batchMs: 5 });
  t.after(() => enforcer.stop());
  assert.equal(enforcer.table.name, tableName('n1'));
  assert.equal(tableName('n1'), 'orch-netpol-n1');
  assert.match(tableName('x'.repeat(60)), /^orch-netpol-[0-9a-f]{16}$/, 'a node name too long for nft is hashed');

  const runPod = async (ns: string, name: string, ip: string, labels: Record<string, string>) => {
    await client.create(`/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox', ports: [{ name: 'http', containerPort: 8080 }] }] } });
    const pod = await client.get(`/api/v1/namespaces/${ns}/pods/${name}`);
    await client.update(`/api/v1/namespaces/${ns}/pods/${name}/status`, { ...pod, status: { phase: 'Running', podIP: ip, podIPs: [{ ip }] } });
  };
  await runPod('default', 'web', '10.42.0.10', { app: 'web' });
  await runPod('default', 'client', '10.42.0.11', { app: 'client' });
  await enforcer.synced();
  const fwd = (src: string, dst: string, port = 8080) => verdict(enforcer.ruleset()!, 'forward', { src, dst, proto: 'tcp', port });
  await eventually(async () => enforcer.ruleset()?.sets.size && fwd('10.42.0.11', '10.42.0.10') === 'accept', 'the first ruleset');

  const policies = '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies';
  await client.create(policies, { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'web' }, spec: { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }, { namespaceSelector: { matchLabels: { team: 'a' } } }], ports: [{ port: 'http' }] }] } });
  await eventually(async () => fwd('10.42.0.11', '10.42.0.10', 9090) === 'drop', 'the policy isolating web');
  assert.equal(fwd('10.42.0.11', '10.42.0.10'), 'accept', 'client on the named port');

  // a label change moves the client out of the peers
  const client2 = await client.get('/api/v1/namespaces/default/pods/client');
  await client.update('/api/v1/namespaces/default/pods/client', { ...client2, metadata: { ...client2.metadata, labels: { app: 'other' } } });
  await eventually(async () => fwd('10.42.0.11', '10.42.0.10') === 'drop', 'the relabelled client refused');

  // a namespace labelled team=a brings its pods in
  await client.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { team: 'a' } } });
  await client.create('/api/v1/namespaces/team-a/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  await runPod('team-a', 'tools', '10.42.0.20', { app: 'tools' });
  await eventually(async () => fwd('10.42.0.20', '10.42.0.10') === 'accept', 'a pod of team-a let in');

  await client.delete(`${policies}/web`);
  await eventually(async () => fwd('10.42.0.11', '10.42.0.10') === 'accept', 'open again once the policy is gone');
  assert.match(enforcer.script(), /^add table inet orch-netpol-n1\n/);
});
