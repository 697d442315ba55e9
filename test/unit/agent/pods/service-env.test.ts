import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podServiceEnv, serviceEnv } from '../../../../src/agent/pods/service-env.ts';
import { containerEnv } from '../../../../src/agent/pods/env.ts';

const svc = (namespace: string, name: string, clusterIP: string, ports: Array<{ name?: string; port: number; protocol?: string }>) => ({ metadata: { namespace, name }, spec: { clusterIP, ports } });
const kubernetes = svc('default', 'kubernetes', '10.96.0.1', [{ name: 'https', port: 443, protocol: 'TCP' }]);

test('the kubernetes Service as the kubelet writes it', () => {
  assert.deepEqual(Object.fromEntries(serviceEnv([kubernetes], 'apps', true)), {
    KUBERNETES_SERVICE_HOST: '10.96.0.1',
    KUBERNETES_SERVICE_PORT: '443',
    KUBERNETES_SERVICE_PORT_HTTPS: '443',
    KUBERNETES_PORT: 'tcp://10.96.0.1:443',
    KUBERNETES_PORT_443_TCP: 'tcp://10.96.0.1:443',
    KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
    KUBERNETES_PORT_443_TCP_PORT: '443',
    KUBERNETES_PORT_443_TCP_ADDR: '10.96.0.1',
  });
});

test('the namespace\'s Services with service links; none without, headless never, others\' namespaces never', () => {
  const web = svc('apps', 'my-web', '10.96.3.4', [{ port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }]);
  const headless = svc('apps', 'h', 'None', [{ port: 80 }]);
  const elsewhere = svc('other', 'x', '10.96.9.9', [{ port: 80 }]);
  const on = serviceEnv([kubernetes, web, headless, elsewhere], 'apps', true);
  assert.equal(on.get('MY_WEB_SERVICE_HOST'), '10.96.3.4');
  assert.equal(on.get('MY_WEB_SERVICE_PORT'), '80');
  assert.equal(on.get('MY_WEB_SERVICE_PORT_DNS'), '53');
  assert.equal(on.get('MY_WEB_PORT_53_UDP'), 'udp://10.96.3.4:53');
  assert.ok(![...on.keys()].some(k => k.startsWith('H_') || k.startsWith('X_')));
  const off = serviceEnv([kubernetes, web], 'apps', false);
  assert.deepEqual([...off.keys()].filter(k => !k.startsWith('KUBERNETES_')), []);
  assert.equal(off.get('KUBERNETES_SERVICE_HOST'), '10.96.0.1');
});

test('IPv6 addresses bracketed in the link URLs', () => {
  const env = serviceEnv([svc('default', 'kubernetes', 'fd00::1', [{ name: 'https', port: 443 }])], 'default', true);
  assert.equal(env.get('KUBERNETES_PORT'), 'tcp://[fd00::1]:443');
  assert.equal(env.get('KUBERNETES_SERVICE_HOST'), 'fd00::1');
});

test('declared variables win over service ones, which $(NAME) can use', async () => {
  const pod: any = { metadata: { name: 'p', namespace: 'default', uid: 'u' }, spec: { containers: [] } };
  const c: any = { name: 'c', env: [{ name: 'KUBERNETES_SERVICE_PORT', value: '6443' }, { name: 'API', value: 'https://$(KUBERNETES_SERVICE_HOST)' }] };
  const src: any = { get: async () => undefined, services: async (ns: string) => (ns === 'default' ? [kubernetes] : []) };
  const env = await containerEnv(pod, c, src, { podIPs: [], hostIPs: [], serviceEnv: await podServiceEnv(src, pod) });
  const m = new Map(env.map(e => [e.key, e.value]));
  assert.equal(m.get('KUBERNETES_SERVICE_PORT'), '6443');
  assert.equal(m.get('API'), 'https://10.96.0.1');
  assert.equal(m.get('KUBERNETES_SERVICE_HOST'), '10.96.0.1');
});

test('an agent without an API gives no service variables', async () => {
  assert.deepEqual(await podServiceEnv({}, { metadata: { namespace: 'default' }, spec: {} }), new Map());
});
