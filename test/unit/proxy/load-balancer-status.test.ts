import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadBalancerStatusPatch } from '../../../src/proxy/load-balancer-status.ts';
import { silentLogger } from '../../../src/api/log.ts';
import { startProxier } from '../../../src/proxy/proxier.ts';
import { startInProcessApi, eventually } from '../controllers/in-process-api.ts';
import { service } from './fixtures.ts';

test('only LoadBalancer Services of no other class, and only when their ingress is not already the address', () => {
  const lb = service('lb', { type: 'LoadBalancer', clusterIP: '10.96.0.9', ports: [{ port: 80, nodePort: 30080 }] });
  assert.deepEqual(loadBalancerStatusPatch(lb, '192.0.2.10'), { status: { loadBalancer: { ingress: [{ ip: '192.0.2.10', ipMode: 'VIP' }] } } });
  assert.equal(loadBalancerStatusPatch({ ...lb, status: { loadBalancer: { ingress: [{ ip: '192.0.2.10', ipMode: 'VIP' }] } } }, '192.0.2.10'), undefined);
  assert.ok(loadBalancerStatusPatch({ ...lb, status: { loadBalancer: { ingress: [{ ip: '192.0.2.99' }] } } }, '192.0.2.10'));
  assert.equal(loadBalancerStatusPatch(service('np', { type: 'NodePort', clusterIP: '10.96.0.8', ports: [{ port: 80 }] }), '192.0.2.10'), undefined);
  assert.equal(loadBalancerStatusPatch(service('other', { type: 'LoadBalancer', loadBalancerClass: 'example.com/lb', clusterIP: '10.96.0.7', ports: [{ port: 80 }] }), '192.0.2.10'), undefined);
});

test('with an address configured, a LoadBalancer Service gets it as its ingress and the rules route it; without, status stays empty', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  await client.create('/api/v1/namespaces/default/services', service('lb', { type: 'LoadBalancer', ports: [{ port: 80 }] }));
  await client.create('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'lb-1', labels: { 'kubernetes.io/service-name': 'lb' } },
    addressType: 'IPv4', ports: [{ name: '', port: 8080, protocol: 'TCP' }], endpoints: [{ addresses: ['10.42.0.4'], conditions: { ready: true } }],
  });
  const plain = startProxier({ client, nodeName: 'n', nodeIPs: [], clusterCIDRs: ['10.42.0.0/16'], minSyncIntervalMs: 0, log: silentLogger });
  await plain.ready();
  await plain.stop();
  assert.deepEqual((await client.get('/api/v1/namespaces/default/services/lb')).status, { loadBalancer: {} });

  const proxier = startProxier({ client, nodeName: 'n', nodeIPs: [], clusterCIDRs: ['10.42.0.0/16'], minSyncIntervalMs: 0, loadBalancerIP: '192.0.2.10', log: silentLogger });
  t.after(() => proxier.stop());
  await eventually(async () => (await client.get('/api/v1/namespaces/default/services/lb')).status?.loadBalancer?.ingress?.[0]?.ip === '192.0.2.10', 'the ingress address written');
  await eventually(async () => proxier.current().ip?.sets.get('service-ips')!.elements.some(e => /^192\.0\.2\.10 \. tcp \. 80 : goto external-/.test(e)), 'the address routed');
});
