// The config producer through a real generic store: the bootstrap objects created, mandatory ones
// forced back, suggested ones updated only while their autoupdate-spec says so, retired ones removed.

import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { testRegistry, type TestRegistry } from '../../support/registry.ts';
import { ensureFlowControlBootstrap, ensureFlowControlBootstrapAtStart, configProducerManager } from '../../../../src/apiserver/flowcontrol/config-producer.ts';
import { autoUpdateAnnotation } from '../../../../src/registry/flowcontrol/bootstrap-objects.ts';
import { parseGoBool, revise } from '../../../../src/apiserver/flowcontrol/ensure.ts';
import type { KubeObject } from '../../../../src/api/object.ts';

let reg: TestRegistry;
beforeEach(async () => { reg = await testRegistry(); });
afterEach(() => reg.close());

const group = 'flowcontrol.apiserver.k8s.io';
const ensure = () => ensureFlowControlBootstrap({ registry: reg.store, catalog: reg.catalog });
const get = (resource: string, name: string) => reg.store.get(reg.info(group, resource), undefined, name) as Promise<KubeObject & { spec: Record<string, any> }>;
const names = async (resource: string) => (await reg.store.list(reg.info(group, resource), undefined)).items.map(o => o.metadata.name).sort();

test('a fresh cluster gets every mandatory and suggested object of v1.35/1.36, annotated, with the defaults applied', async () => {
  await ensure();
  assert.deepEqual(await names('prioritylevelconfigurations'), ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
  assert.deepEqual(await names('flowschemas'), ['catch-all', 'exempt', 'global-default', 'kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts', 'probes', 'service-accounts', 'system-leader-election', 'system-node-high', 'system-nodes']);
  const system = await get('prioritylevelconfigurations', 'system');
  assert.equal(system.metadata.annotations?.[autoUpdateAnnotation], 'true');
  assert.equal(system.metadata.generation, 1);
  assert.equal(system.metadata.managedFields?.[0]?.manager, configProducerManager);
  assert.deepEqual(system.spec, { type: 'Limited', limited: { nominalConcurrencyShares: 30, lendablePercent: 33, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } } } });
  const probes = await get('flowschemas', 'probes');
  assert.deepEqual(probes.spec, { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 2, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:unauthenticated' } }, { kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] }] });
  // a second pass changes nothing
  const rv = (await get('flowschemas', 'catch-all')).metadata.resourceVersion;
  await ensure();
  assert.equal((await get('flowschemas', 'catch-all')).metadata.resourceVersion, rv);
});

test('mandatory objects are forced back: their annotation, and the object itself when deleted; their spec cannot be edited', async () => {
  await ensure();
  const info = reg.info(group, 'flowschemas');
  const catchAll = await get('flowschemas', 'catch-all');
  await assert.rejects(reg.store.update(info, undefined, 'catch-all', { ...catchAll, spec: { ...catchAll.spec, matchingPrecedence: 9999 } }), /spec of 'catch-all' must equal the fixed value/);
  await reg.store.update(info, undefined, 'catch-all', { ...catchAll, metadata: { ...catchAll.metadata, annotations: { [autoUpdateAnnotation]: 'false' } } });
  await reg.store.delete(info, undefined, 'exempt');
  await ensure();
  const back = await get('flowschemas', 'catch-all');
  assert.equal(back.spec.matchingPrecedence, 10000);
  assert.equal(back.metadata.annotations?.[autoUpdateAnnotation], 'true');
  assert.equal((await get('flowschemas', 'exempt')).spec.matchingPrecedence, 1);
  // a spec that differs anyway (written before validation existed, or by another server version) is replaced
  const revised = revise({ current: { ...back, spec: { ...back.spec, matchingPrecedence: 9999 } }, want: back.spec, mandatory: true }) as KubeObject & { spec: { matchingPrecedence: number } };
  assert.equal(revised.spec.matchingPrecedence, 10000);
});

test('the mandatory exempt level keeps an operator\'s shares and lendable percent', async () => {
  await ensure();
  const info = reg.info(group, 'prioritylevelconfigurations');
  const exempt = await get('prioritylevelconfigurations', 'exempt');
  await reg.store.update(info, undefined, 'exempt', { ...exempt, spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 7, lendablePercent: 20 } } });
  await ensure();
  assert.deepEqual((await get('prioritylevelconfigurations', 'exempt')).spec, { type: 'Exempt', exempt: { nominalConcurrencyShares: 7, lendablePercent: 20 } });
  // without spec.exempt the level's spec is the server's again
  const bare = revise({ current: { ...exempt, spec: { type: 'Exempt' } }, want: exempt.spec, mandatory: true, keepExemptTuning: true }) as KubeObject & { spec: object };
  assert.deepEqual(bare.spec, { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } });
});

test('suggested objects: edits are undone while autoupdate-spec is "true", kept when it is "false"', async () => {
  await ensure();
  const info = reg.info(group, 'prioritylevelconfigurations');
  const edit = async (annotation: string | undefined, shares: number) => {
    const current = await get('prioritylevelconfigurations', 'workload-low');
    const annotations = { ...current.metadata.annotations };
    if (annotation === undefined) delete annotations[autoUpdateAnnotation]; else annotations[autoUpdateAnnotation] = annotation;
    await reg.store.update(info, undefined, 'workload-low', { ...current, metadata: { ...current.metadata, annotations }, spec: { ...current.spec, limited: { ...current.spec.limited, nominalConcurrencyShares: shares } } });
  };
  await edit('true', 1);
  await ensure();
  assert.equal((await get('prioritylevelconfigurations', 'workload-low')).spec.limited.nominalConcurrencyShares, 100);
  await edit('false', 2);
  await ensure();
  let now = await get('prioritylevelconfigurations', 'workload-low');
  assert.equal(now.spec.limited.nominalConcurrencyShares, 2);
  assert.equal(now.metadata.annotations?.[autoUpdateAnnotation], 'false');
  // without the annotation an edited object (generation past 1) is the user's: marked false
  await edit(undefined, 3);
  await ensure();
  now = await get('prioritylevelconfigurations', 'workload-low');
  assert.equal(now.spec.limited.nominalConcurrencyShares, 3);
  assert.equal(now.metadata.annotations?.[autoUpdateAnnotation], 'false');
  // a suggested object a user deleted comes back
  await reg.store.delete(info, undefined, 'workload-low');
  await ensure();
  assert.equal((await get('prioritylevelconfigurations', 'workload-low')).spec.limited.nominalConcurrencyShares, 100);
});

test('objects the server no longer suggests are removed unless their autoupdate is off', async () => {
  await ensure();
  const info = reg.info(group, 'flowschemas');
  const retired = (name: string, annotation?: string) => reg.store.create(info, undefined, {
    metadata: { name, ...(annotation !== undefined ? { annotations: { [autoUpdateAnnotation]: annotation } } : {}) },
    spec: { priorityLevelConfiguration: { name: 'workload-high' }, matchingPrecedence: 150, rules: [] },
  } as never);
  await retired('endpoint-controller', 'true');
  await retired('workload-leader-election', 'false');
  await retired('my-own');
  await ensure();
  const left = await names('flowschemas');
  assert.equal(left.includes('endpoint-controller'), false);
  assert.equal(left.includes('workload-leader-election'), true);
  assert.equal(left.includes('my-own'), true);
});

test('two servers\' producers at once: creates and updates race without failing either', async () => {
  await Promise.all([ensure(), ensure()]);
  const info = reg.info(group, 'prioritylevelconfigurations');
  for (const name of ['system', 'workload-high', 'global-default']) {
    const current = await get('prioritylevelconfigurations', name);
    await reg.store.update(info, undefined, name, { ...current, spec: { ...current.spec, limited: { ...current.spec.limited, lendablePercent: 1 } } });
  }
  await Promise.all([ensure(), ensure()]);
  for (const name of ['system', 'workload-high', 'global-default']) assert.notEqual((await get('prioritylevelconfigurations', name)).spec.limited.lendablePercent, 1);
});

test('the decision alone: Go booleans, generation 1, and an annotation rewritten without a spec change', () => {
  assert.equal(parseGoBool('True'), true);
  assert.equal(parseGoBool('0'), false);
  assert.equal(parseGoBool('yes'), undefined);
  const obj = (annotations: Record<string, string> | undefined, generation: number, spec: object) => ({ metadata: { name: 'x', annotations, generation }, spec }) as KubeObject & { spec: object };
  // unreadable annotation at generation 1: still the server's, so updated and marked true
  const r = revise({ current: obj({ [autoUpdateAnnotation]: 'maybe' }, 1, { a: 1 }), want: { a: 2 }, mandatory: false });
  assert.deepEqual([r?.metadata.annotations?.[autoUpdateAnnotation], (r as { spec?: object } | undefined)?.spec], ['true', { a: 2 }]);
  // "TRUE" is true already: nothing to write when the spec agrees
  assert.equal(revise({ current: obj({ [autoUpdateAnnotation]: 'TRUE' }, 4, { a: 2 }), want: { a: 2 }, mandatory: false }), undefined);
  // false booleans and absent fields are the same spec (Go's omitempty)
  assert.equal(revise({ current: obj({ [autoUpdateAnnotation]: 'true' }, 4, { a: 2, clusterScope: false }), want: { a: 2 }, mandatory: false }), undefined);
});

test('the first pass is made again every second while it fails, and gives up with kube-apiserver\'s words', async () => {
  // the storage refuses reads until `healthyAt`
  let healthyAt = performance.now() + 50;
  let passes = 0;
  const flaky = new Proxy(reg.store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      if (prop !== 'get') return v.bind(target);
      return (...args: unknown[]) => (performance.now() < healthyAt ? Promise.reject(new Error('database is locked')) : v.apply(target, args));
    },
  });
  const catalog = new Proxy(reg.catalog, { get(target, prop) { const v = Reflect.get(target, prop); if (prop === 'lookup' && typeof v === 'function') return (...a: unknown[]) => { if (a[2] === 'flowschemas') passes++; return v.apply(target, a); }; return typeof v === 'function' ? v.bind(target) : v; } });
  await ensureFlowControlBootstrapAtStart({ registry: flaky, catalog }, { everyMs: 20, forMs: 5000 });
  assert.ok(passes >= 3, `${passes} passes: the failing ones made again until one succeeded`);
  assert.ok((await names('flowschemas')).includes('catch-all'));
  healthyAt = Infinity;
  await assert.rejects(ensureFlowControlBootstrapAtStart({ registry: flaky, catalog: reg.catalog }, { everyMs: 20, forMs: 70 }), { message: 'unable to initialize APF bootstrap configuration: database is locked' });
});
