// The APIServices of CRD group-versions against a real store, as kube-apiserver's CRD
// registration and autoregister controllers keep them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRegistry } from '../../support/registry.ts';
import { servedResources } from '../../../../src/registry/apiextensions/served-resources.ts';
import type { Crd } from '../../../../src/registry/apiextensions/crd-types.ts';
import { crdAPIServices, startCrdAPIServiceRegistration, syncCrdAPIServices } from '../../../../src/apiserver/aggregator/crd-apiservices.ts';
import { ensureLocalAPIServices, localAPIServices } from '../../../../src/apiserver/aggregator/local-apiservices.ts';
import type { Logger } from '../../../../src/api/log.ts';

const quiet = { info() {}, warn() {}, error() {}, debug() {}, enabled: () => false } as unknown as Logger;

function crd(group: string, versions: Array<[string, boolean]>): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${group}` },
    spec: { group, scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: versions.map(([name, served], i) => ({ name, served, storage: i === 0 })) },
    status: { acceptedNames: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' }, conditions: [{ type: 'Established', status: 'True' }] },
  };
}

type APIService = { metadata: { name: string; labels?: Record<string, string> }; spec: Record<string, unknown>; status?: { conditions?: Array<Record<string, string>> } };

test('one APIService per served custom group-version, priorities 1000/100, not for the built-in ones', async () => {
  const reg = await testRegistry();
  try {
    reg.catalog.setCustomResources([...servedResources(crd('example.com', [['v1', true], ['v2', true], ['v0', false]]))]);
    const want = crdAPIServices(reg.catalog);
    assert.deepEqual(want.map(a => [a.metadata.name, a.metadata.labels, a.spec]), [
      ['v1.example.com', { 'kube-aggregator.kubernetes.io/automanaged': 'true' }, { group: 'example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 }],
      ['v2.example.com', { 'kube-aggregator.kubernetes.io/automanaged': 'true' }, { group: 'example.com', version: 'v2', groupPriorityMinimum: 1000, versionPriority: 100 }],
    ]);
    // the start-up set of built-in APIServices leaves custom group-versions to this one
    assert.ok(!localAPIServices(reg.catalog).some(a => a.metadata.name === 'v1.example.com'));
  } finally { await reg.close(); }
});

test('created Local, put back when edited, deleted when no CRD serves it; someone else\'s left alone', async () => {
  const reg = await testRegistry();
  try {
    const info = reg.info('apiregistration.k8s.io', 'apiservices');
    const get = async (name: string) => (await reg.store.get(info, undefined, name).catch(() => undefined)) as APIService | undefined;
    await ensureLocalAPIServices(reg.store, reg.catalog);
    // a user's own APIService for a group-version a CRD will serve (no automanaged label)
    await reg.store.create(info, undefined, { metadata: { name: 'v1.mine.example.com' }, spec: { group: 'mine.example.com', version: 'v1', groupPriorityMinimum: 5, versionPriority: 5 } } as never);
    reg.catalog.setCustomResources([...servedResources(crd('example.com', [['v1', true], ['v2', true]])), ...servedResources(crd('mine.example.com', [['v1', true]]))]);
    await syncCrdAPIServices(reg.store, reg.catalog);
    const v1 = (await get('v1.example.com'))!;
    assert.deepEqual(v1.spec, { group: 'example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 });
    assert.deepEqual([v1.status?.conditions?.[0]?.status, v1.status?.conditions?.[0]?.reason], ['True', 'Local']);
    assert.equal((await get('v1.mine.example.com'))!.spec.groupPriorityMinimum, 5);
    // an edit is undone; a pass with nothing to do writes nothing
    await reg.store.modify(info, undefined, 'v1.example.com', c => ({ ...c, spec: { ...(c as APIService).spec, versionPriority: 7 } }) as never);
    await syncCrdAPIServices(reg.store, reg.catalog);
    const putBack = (await get('v1.example.com'))!;
    assert.equal(putBack.spec.versionPriority, 100);
    const rev = await reg.store.currentRevision();
    await syncCrdAPIServices(reg.store, reg.catalog);
    assert.equal(await reg.store.currentRevision(), rev);
    // v2 no longer served, then the CRD gone
    reg.catalog.setCustomResources(servedResources(crd('example.com', [['v1', true], ['v2', false]])));
    await syncCrdAPIServices(reg.store, reg.catalog);
    assert.equal(await get('v2.example.com'), undefined);
    assert.ok(await get('v1.example.com'));
    assert.ok(await get('v1.mine.example.com'), 'not ours to delete');
    assert.ok(await get('v1.apps'), 'built-in ones stay');
  } finally { await reg.close(); }
});

test('start-up APIServices of an earlier run whose group-version nothing serves now are deleted; a live CRD\'s are taken over', async () => {
  const reg = await testRegistry();
  try {
    const info = reg.info('apiregistration.k8s.io', 'apiservices');
    const onstart = (group: string) => ({ metadata: { name: `v1.${group}`, labels: { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' } }, spec: { group, version: 'v1', groupPriorityMinimum: 1000, versionPriority: 15 } });
    await reg.store.create(info, undefined, onstart('gone.example.com') as never);
    await reg.store.create(info, undefined, onstart('live.example.com') as never);
    reg.catalog.setCustomResources(servedResources(crd('live.example.com', [['v1', true]])));
    await ensureLocalAPIServices(reg.store, reg.catalog);
    assert.equal(await reg.store.get(info, undefined, 'v1.gone.example.com').catch(() => undefined), undefined);
    await syncCrdAPIServices(reg.store, reg.catalog);
    const live = await reg.store.get(info, undefined, 'v1.live.example.com') as unknown as APIService;
    assert.deepEqual([live.metadata.labels?.['kube-aggregator.kubernetes.io/automanaged'], live.spec.versionPriority], ['true', 100]);
  } finally { await reg.close(); }
});

test('the registration follows the catalog by itself', async () => {
  const reg = await testRegistry();
  const info = reg.info('apiregistration.k8s.io', 'apiservices');
  const ctl = startCrdAPIServiceRegistration({ store: reg.store, catalog: reg.catalog, log: quiet });
  try {
    reg.catalog.setCustomResources(servedResources(crd('example.com', [['v1', true]])));
    const until = async (cond: () => Promise<boolean>) => { for (let i = 0; i < 100 && !(await cond()); i++) await new Promise(r => setTimeout(r, 20)); assert.ok(await cond()); };
    await until(async () => !!(await reg.store.get(info, undefined, 'v1.example.com').catch(() => undefined)));
    reg.catalog.setCustomResources([]);
    await until(async () => !(await reg.store.get(info, undefined, 'v1.example.com').catch(() => undefined)));
  } finally { await ctl.stop(); await reg.close(); }
});
