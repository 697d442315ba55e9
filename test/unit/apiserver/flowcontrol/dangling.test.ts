// The classifier over a real generic store: it follows the stored configuration through watches,
// and keeps each FlowSchema's Dangling condition in kube-apiserver's words.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testRegistry, type TestRegistry } from '../../support/registry.ts';
import { ensureFlowControlBootstrap } from '../../../../src/apiserver/flowcontrol/config-producer.ts';
import { createFlowClassifier, type RunningFlowClassifier } from '../../../../src/apiserver/flowcontrol/classifier.ts';
import { danglingUpdate, desiredDangling } from '../../../../src/apiserver/flowcontrol/dangling.ts';
import { parseRequestInfo } from '../../../../src/apiserver/request-info.ts';
import type { KubeObject } from '../../../../src/api/object.ts';

let reg: TestRegistry;
let classifier: RunningFlowClassifier;
before(async () => {
  reg = await testRegistry();
  await ensureFlowControlBootstrap({ registry: reg.store, catalog: reg.catalog });
  classifier = createFlowClassifier({ registry: reg.store, catalog: reg.catalog, now: () => new Date('2026-05-06T07:08:09.123Z') });
  await classifier.synced;
});
after(async () => { classifier.stop(); await reg.close(); });

const group = 'flowcontrol.apiserver.k8s.io';
type Conditions = { status?: { conditions?: Array<Record<string, string>> } };
const condition = async (name: string) => ((await reg.store.get(reg.info(group, 'flowschemas'), undefined, name)) as KubeObject & Conditions).status?.conditions?.find(c => c.type === 'Dangling');
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await read();
    if (ok(v) || i > 100) return v;
    await new Promise(r => setTimeout(r, 20));
  }
}

test('the messages are kube-apiserver\'s', () => {
  assert.deepEqual(desiredDangling('x', false), { type: 'Dangling', status: 'True', reason: 'NotFound', message: 'This FlowSchema references the PriorityLevelConfiguration object named "x" but there is no such object' });
  assert.deepEqual(desiredDangling('x', true), { type: 'Dangling', status: 'False', reason: 'Found', message: 'This FlowSchema references the PriorityLevelConfiguration object named "x" and it exists' });
  const right = { spec: { priorityLevelConfiguration: { name: 'x' } }, status: { conditions: [{ ...desiredDangling('x', true), lastTransitionTime: '2020-01-01T00:00:00Z' }] } };
  assert.equal(danglingUpdate(right, true, new Date()), undefined);
  assert.equal(danglingUpdate(right, false, new Date(0))?.lastTransitionTime, '1970-01-01T00:00:00Z');
});

test('every bootstrap FlowSchema is marked Found', async () => {
  const c = await until(() => condition('system-nodes'), v => v !== undefined);
  assert.deepEqual(c, { type: 'Dangling', status: 'False', reason: 'Found', message: 'This FlowSchema references the PriorityLevelConfiguration object named "system" and it exists', lastTransitionTime: '2026-05-06T07:08:09Z' });
  assert.equal((await condition('exempt'))?.reason, 'Found');
});

test('a FlowSchema naming a missing level is NotFound and skipped until the level exists', async () => {
  const fsInfo = reg.info(group, 'flowschemas');
  await reg.store.create(fsInfo, undefined, {
    metadata: { name: 'team-a' },
    spec: { priorityLevelConfiguration: { name: 'team-a' }, matchingPrecedence: 50, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'team-a' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] },
  } as never);
  const dangling = await until(() => condition('team-a'), v => v?.status === 'True');
  assert.equal(dangling?.reason, 'NotFound');
  const user = { name: 'ann', groups: ['team-a', 'system:authenticated'] };
  const version = parseRequestInfo('GET', '/version', new URLSearchParams());
  assert.equal(classifier.classify(user, version).flowSchema.name, 'global-default');
  let changes = 0;
  classifier.onChange(() => { changes++; });
  await reg.store.create(reg.info(group, 'prioritylevelconfigurations'), undefined, {
    metadata: { name: 'team-a' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 3, limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 2 } } } },
  } as never);
  const found = await until(() => condition('team-a'), v => v?.status === 'False');
  assert.equal(found?.reason, 'Found');
  const c = classifier.classify(user, version);
  assert.equal(c.flowSchema.name, 'team-a');
  assert.equal(c.priorityLevel.name, 'team-a');
  assert.deepEqual(c.priorityLevel.queuing, { queues: 16, handSize: 2, queueLengthLimit: 50 });
  assert.equal(c.distinguisher, 'ann');
  assert.ok(c.flowSchema.uid && c.priorityLevel.uid);
  assert.ok(changes > 0);
  assert.ok(classifier.priorityLevels().some(l => l.name === 'team-a'));
});

test('the condition is server-side applied to the status as kube-apiserver\'s controller applies it; other conditions stay', async () => {
  const fsInfo = reg.info(group, 'flowschemas');
  await reg.store.create(fsInfo, undefined, { metadata: { name: 'applied' }, spec: { priorityLevelConfiguration: { name: 'missing-level' }, matchingPrecedence: 60, rules: [] } } as never);
  assert.equal((await until(() => condition('applied'), v => v !== undefined))?.reason, 'NotFound');
  const read = async () => (await reg.store.get(fsInfo, undefined, 'applied')) as KubeObject & Conditions;
  const entry = (await read()).metadata.managedFields?.find(e => e.manager === 'api-priority-and-fairness-config-consumer-v1');
  assert.deepEqual({ operation: entry?.operation, subresource: entry?.subresource, apiVersion: entry?.apiVersion }, { operation: 'Apply', subresource: 'status', apiVersion: 'flowcontrol.apiserver.k8s.io/v1' });
  assert.deepEqual(entry?.fieldsV1, { 'f:status': { 'f:conditions': { 'k:{"type":"Dangling"}': { '.': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} } } } });
  // someone else's condition of another type is left alone when the Dangling one changes
  await reg.store.modify(fsInfo, undefined, 'applied', cur => ({ ...cur, status: { conditions: [...((cur as Conditions).status?.conditions ?? []), { type: 'Reviewed', status: 'True' }] } }), { subresource: 'status', manager: 'reviewer' });
  await reg.store.create(reg.info(group, 'prioritylevelconfigurations'), undefined, { metadata: { name: 'missing-level' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } } } } as never);
  assert.equal((await until(() => condition('applied'), v => v?.status === 'False'))?.reason, 'Found');
  assert.deepEqual((await read()).status?.conditions?.map(c => c.type).sort(), ['Dangling', 'Reviewed']);
});
