// Configurations followed through the registry's watch, and services resolved through their
// EndpointSlices, over a real store.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../../../../src/api/log.ts';
import { watchedSource } from '../../../../../../src/apiserver/admission/plugins/webhooks/source.ts';
import { endpointSliceResolver, ResolveError } from '../../../../../../src/apiserver/admission/plugins/webhooks/service-resolver.ts';
import { testRegistry, type TestRegistry } from '../../../../support/registry.ts';
import { configuration } from './attributes.ts';

let reg: TestRegistry;
before(async () => { reg = await testRegistry(); });
after(() => reg.close());

async function until(check: () => boolean, ms = 1000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail('not within the time allowed');
    await new Promise(r => setTimeout(r, 10));
  }
}

test('webhooks follow their configurations: ordered by configuration name, changes seen within a second', async () => {
  const info = reg.info('admissionregistration.k8s.io', 'validatingwebhookconfigurations');
  const cc = { url: 'https://127.0.0.1:1/x' };
  await reg.store.create(info, undefined, configuration('b-config', [{ name: 'b1.example.com', clientConfig: cc }, { name: 'b2.example.com', clientConfig: cc }]));
  const source = watchedSource(reg.store, reg.catalog, 'validatingwebhookconfigurations', silentLogger);
  try {
    await source.synced;
    assert.deepEqual(source.hooks().map(h => h.spec.name), ['b1.example.com', 'b2.example.com']);
    await reg.store.create(info, undefined, configuration('a-config', [{ name: 'a.example.com', clientConfig: cc }]));
    await until(() => source.hooks().length === 3);
    assert.deepEqual(source.hooks().map(h => h.uid), ['a-config/a.example.com/0', 'b-config/b1.example.com/0', 'b-config/b2.example.com/1']);
    await reg.store.delete(info, undefined, 'b-config');
    await until(() => source.hooks().length === 1);
  } finally {
    source.stop();
  }
});

test('a service resolves to a ready endpoint of its EndpointSlices, by the service port\'s name', async () => {
  const ns = reg.info('', 'namespaces');
  await reg.store.create(ns, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hooks' } });
  await reg.store.create(reg.info('', 'services'), 'hooks', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'wh' }, spec: { ports: [{ name: 'https', port: 443, targetPort: 8443 }] } });
  const resolve = endpointSliceResolver(reg.store, reg.catalog, () => 0);
  await assert.rejects(resolve('hooks', 'wh', 443), new ResolveError('no endpoints available for service "wh"'));
  await assert.rejects(resolve('hooks', 'wh', 80), new ResolveError('no service port 80 found for service "wh"'));
  await assert.rejects(resolve('hooks', 'nope', 443), new ResolveError('service "nope" not found'));
  await reg.store.create(reg.info('discovery.k8s.io', 'endpointslices'), 'hooks', {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'wh-1', labels: { 'kubernetes.io/service-name': 'wh' } },
    addressType: 'IPv4', ports: [{ name: 'https', port: 8443 }],
    endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: false } }, { addresses: ['10.0.0.2'], conditions: { ready: true } }],
  });
  assert.deepEqual(await resolve('hooks', 'wh', 443), { host: '10.0.0.2', port: 8443 });
});
