// The subresource table is the only place subresources are known: one module and one
// registration make a new one routed, advertised in discovery and OpenAPI, and answering,
// with no other file touched. The server runs in this process.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../../src/api/log.ts';
import { startServer } from '../../../../src/apiserver/start.ts';
import { registerSubresource, subresourceOf, subresourcesOf } from '../../../../src/registry/subresources/table.ts';
import { createCatalog } from '../../../../src/schema/catalog.ts';
import { rawClient } from '../../../e2e/support/raw-client.ts';
import { keysSubresource } from './echo-subresource.ts';

registerSubresource(keysSubresource);

test('the table says which subresources each resource has', () => {
  const catalog = createCatalog({});
  const pods = catalog.lookup('', 'v1', 'pods')!;
  assert.deepEqual(subresourcesOf(pods).map(s => s.name), ['attach', 'binding', 'ephemeralcontainers', 'eviction', 'exec', 'log', 'portforward', 'proxy', 'resize', 'status']);
  assert.equal(subresourceOf(pods, 'scale'), undefined, 'Kubernetes gives pods none');
  assert.deepEqual(subresourcesOf(catalog.lookup('apps', 'v1', 'deployments')!).map(s => s.name), ['scale', 'status']);
  assert.deepEqual(subresourcesOf(catalog.lookup('', 'v1', 'namespaces')!).map(s => s.name), ['finalize', 'status']);
  assert.deepEqual(subresourcesOf(catalog.lookup('', 'v1', 'configmaps')!).map(s => s.name), ['keys']);
  assert.throws(() => registerSubresource(keysSubresource), /registered twice/);
});

test('a subresource added by one module and one registration is routed, discovered and answers', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-subresource-'));
  const server = await startServer({ dataDir: dir, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0 });
  try {
    const c = rawClient(server.kubeconfigPath);
    const cms = '/api/v1/namespaces/default/configmaps';
    assert.equal((await c.request('POST', cms, { body: JSON.stringify({ metadata: { name: 'k' }, data: { b: '2', a: '1' } }) })).status, 201);

    const got = await c.request('GET', `${cms}/k/keys`);
    assert.equal(got.status, 200, got.body);
    assert.deepEqual(got.json().data, { keys: 'a,b' });

    const discovery = (await c.request('GET', '/api/v1')).json();
    const entry = discovery.resources.find((r: { name: string }) => r.name === 'configmaps/keys');
    assert.deepEqual(entry, { name: 'configmaps/keys', singularName: '', namespaced: true, kind: 'ConfigMap', verbs: ['get'] });
    const openapi = (await c.request('GET', '/openapi/v2')).json();
    assert.equal(openapi.paths['/api/v1/namespaces/{namespace}/configmaps/{name}/keys'].get['x-kubernetes-action'], 'get');

    // only its own verbs, only on its own resource
    assert.equal((await c.request('PUT', `${cms}/k/keys`, { body: '{}' })).status, 405);
    assert.equal((await c.request('GET', '/api/v1/namespaces/default/secrets/k/keys')).status, 404);
    assert.equal((await c.request('GET', `${cms}/missing/keys`)).status, 404);
  } finally {
    await server.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
});
