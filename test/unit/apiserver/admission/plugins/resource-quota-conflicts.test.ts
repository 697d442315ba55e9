// ResourceQuota's charge under conflicting writers: a quota whose write met a newer version is
// read again and decided again alone (the ones already charged are not charged twice), and
// conflicts that never end are the 409 the last write met.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conflict } from '../../../../../src/api/status.ts';
import { resourceQuota } from '../../../../../src/apiserver/admission/plugins/resource-quota.ts';

const info = { group: '', version: 'v1', resource: 'resourcequotas', kind: 'ResourceQuota', namespaced: true };
const quota = (name: string, used: string, rv: string) => ({ metadata: { name, namespace: 'ns', resourceVersion: rv }, spec: { hard: { pods: '5' } }, status: { hard: { pods: '5' }, used: { pods: used } } });

function plugin(stored: Map<string, any>, conflictsFor: Record<string, number>) {
  const writes: Array<[string, string]> = [];
  const registry = {
    async list() { return { items: [...stored.values()].map(q => structuredClone(q)) }; },
    async update(_i: unknown, _ns: string, name: string, body: any) {
      if ((conflictsFor[name] ?? 0) > 0) {
        conflictsFor[name]!--;
        // another writer got there first: the stored quota moved on
        const cur = stored.get(name);
        stored.set(name, { ...cur, metadata: { ...cur.metadata, resourceVersion: String(Number(cur.metadata.resourceVersion) + 1) }, status: { ...cur.status, used: { pods: String(Number(cur.status.used.pods) + 1) } } });
        throw conflict({ group: '', resource: 'resourcequotas' }, name);
      }
      writes.push([name, body.status.used.pods]);
      stored.set(name, body);
      return { object: body, created: false };
    },
  };
  const p = resourceQuota({ registry: registry as never, catalog: { lookup: () => info } as never, now: () => new Date(), random: Math.random });
  const attrs = { operation: 'CREATE' as const, resource: { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true } as never, subresource: '', namespace: 'ns', name: 'p', object: { metadata: { name: 'p' }, spec: { containers: [] } } as never, user: { name: 'u', groups: [] }, dryRun: false, warn() {}, annotate() {} };
  return { validate: async () => { await p.validate!(attrs); }, writes };
}

test('a conflict re-reads and charges only the quota that conflicted', async () => {
  const stored = new Map([['a', quota('a', '0', '1')], ['b', quota('b', '0', '1')]]);
  const { validate, writes } = plugin(stored, { b: 1 });
  await validate();
  assert.deepEqual(writes, [['a', '1'], ['b', '2']], 'b is charged on top of the other writer\'s figure; a once');
});

test('conflicts that never end give the 409', async () => {
  const stored = new Map([['a', quota('a', '0', '1')]]);
  const { validate, writes } = plugin(stored, { a: 10 });
  await assert.rejects(validate(), (err: any) => err.code === 409 && /resourcequotas "a"/.test(err.message));
  assert.deepEqual(writes, []);
});
