import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conflict, notFound } from '../../../src/api/status.ts';
import type { KubeObject } from '../../../src/api/object.ts';
import type { Catalog } from '../../../src/schema/types.ts';
import type { Registry } from '../../../src/registry/registry.ts';
import { ensureKubernetesEndpoints } from '../../../src/apiserver/bootstrap.ts';

const endpoints = { group: '', resource: 'endpoints' };
const catalog = { lookup: (group: string, _v: string, resource: string) => (group === '' && resource === 'endpoints' ? endpoints : undefined) } as unknown as Catalog;

/** one Endpoints object with resourceVersion checks, and another server's write slipped in once */
function store(initial: KubeObject | undefined, racing?: KubeObject) {
  let current = initial;
  const updates: KubeObject[] = [];
  const s = {
    async get() { if (!current) throw notFound(endpoints, 'kubernetes'); return structuredClone(current); },
    async create(_i: unknown, _ns: string, o: KubeObject) { current = { ...o, metadata: { ...o.metadata, resourceVersion: '1' } }; return current; },
    async update(_i: unknown, _ns: string, _n: string, o: KubeObject) {
      updates.push(o);
      if (racing) { current = racing; racing = undefined; }
      if (o.metadata.resourceVersion !== current!.metadata.resourceVersion) throw conflict(endpoints, 'kubernetes');
      current = { ...o, metadata: { ...o.metadata, resourceVersion: String(Number(o.metadata.resourceVersion) + 1) } };
      return current;
    },
  };
  return { registry: s as unknown as Registry, updates, now: () => current };
}

const at = (ip: string, port: number, rv: string): KubeObject => ({ metadata: { name: 'kubernetes', resourceVersion: rv }, subsets: [{ addresses: [{ ip }], ports: [{ name: 'https', port, protocol: 'TCP' }] }] });

test('the kubernetes Endpoints are created, then left alone while they name this server', async () => {
  const s = store(undefined);
  await ensureKubernetesEndpoints(s.registry, catalog, '127.0.0.1', 6443);
  assert.deepEqual(s.now()!.subsets, at('127.0.0.1', 6443, '').subsets);
  await ensureKubernetesEndpoints(s.registry, catalog, '127.0.0.1', 6443);
  assert.equal(s.updates.length, 0);
});

test('a server whose update lost to another server\'s reads the object again and writes its address', async () => {
  const s = store(at('127.0.0.1', 1111, '5'), at('127.0.0.1', 2222, '6'));
  await ensureKubernetesEndpoints(s.registry, catalog, '127.0.0.1', 3333);
  assert.equal(s.updates.length, 2);
  assert.deepEqual(s.now()!.subsets, at('127.0.0.1', 3333, '').subsets);
  assert.equal(s.now()!.metadata.resourceVersion, '7');
});
