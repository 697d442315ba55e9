import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog } from '../../../../src/schema/catalog.ts';
import { remoteGroups, withRemoteApis } from '../../../../src/apiserver/aggregator/discovery-catalog.ts';
import { groupVersionOf } from '../../../../src/apiserver/aggregator/aggregator.ts';
import { aggregated, groupList, resourceList } from '../../../../src/apiserver/discovery.ts';
import type { RemoteAPIService } from '../../../../src/apiserver/aggregator/controller.ts';

const ref = { namespace: 'wardle', name: 'api', port: 443 };
const remote = (version: string, versionPriority: number, available = true): RemoteAPIService => ({
  name: `${version}.wardle.example.com`, group: 'wardle.example.com', version, groupPriorityMinimum: 1000, versionPriority, ref, spec: {}, available,
  discovery: { resources: [
    { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list'], shortNames: ['fl'], categories: ['all'] },
    { name: 'flunders/status', namespaced: true, kind: 'Flunder', verbs: ['get'] },
  ] },
});

test('an available extension\'s group shows in /apis after orch\'s own, its highest versionPriority preferred', () => {
  const catalog = createCatalog({});
  const groups = remoteGroups(catalog.groups(), [remote('v1alpha1', 10), remote('v1beta1', 20), remote('v2', 30, false)]);
  assert.deepEqual(groups.at(-1), { name: 'wardle.example.com', versions: ['v1beta1', 'v1alpha1'], preferredVersion: 'v1beta1' });
  assert.equal(groups.length, catalog.groups().length + 1);
});

test('the merged catalog serves the discovery documents kubectl reads', () => {
  const base = createCatalog({});
  const c = withRemoteApis(base, () => [remote('v1alpha1', 15)]);
  const list = groupList(c) as { groups: Array<{ name: string }> };
  assert.ok(list.groups.some(g => g.name === 'wardle.example.com'));
  const res = resourceList(c, 'wardle.example.com', 'v1alpha1') as { resources: Array<Record<string, unknown>> };
  assert.deepEqual(res.resources.map(r => r.name), ['flunders']);
  const agg = aggregated(c, 'apis', 'v2') as { items: Array<{ metadata: { name: string }; versions: Array<{ version: string; resources: Array<Record<string, unknown>> }> }> };
  const item = agg.items.find(i => i.metadata.name === 'wardle.example.com')!;
  assert.equal(item.versions[0]!.resources[0]!.resource, 'flunders');
  assert.equal(item.versions[0]!.resources[0]!.scope, 'Namespaced');
  assert.deepEqual(item.versions[0]!.resources[0]!.shortNames, ['fl']);
  // orch's own groups are untouched, and an unavailable extension is not shown
  assert.equal(c.lookup('apps', 'v1', 'deployments'), base.lookup('apps', 'v1', 'deployments'));
  assert.equal(withRemoteApis(base, () => [remote('v1alpha1', 15, false)]).groups().length, base.groups().length);
});

test('the group-version a request path names', () => {
  assert.deepEqual(groupVersionOf('/apis/wardle.example.com/v1alpha1/namespaces/x/flunders'), { group: 'wardle.example.com', version: 'v1alpha1' });
  assert.deepEqual(groupVersionOf('/apis/wardle.example.com/v1alpha1'), { group: 'wardle.example.com', version: 'v1alpha1' });
  assert.equal(groupVersionOf('/apis/wardle.example.com'), undefined);
  assert.equal(groupVersionOf('/apis'), undefined);
  assert.equal(groupVersionOf('/healthz'), undefined);
});
