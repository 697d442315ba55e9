// ResourceQuota validation through the generic store, in kube-apiserver's words.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testRegistry, type TestRegistry } from '../../support/registry.ts';

let reg: TestRegistry;
before(async () => { reg = await testRegistry(); });
after(() => reg.close());

const quotas = () => reg.info('', 'resourcequotas');
async function refusal(name: string, spec: unknown): Promise<string> {
  try { await reg.store.create(quotas(), 'default', { metadata: { name }, spec } as never); } catch (err: any) { assert.equal(err.status.code, 422); return err.status.message; }
  return assert.fail('created');
}

test('hard names and figures', async () => {
  assert.equal(await refusal('a', { hard: { pods: '-1', 'requests.cpu': '1', 'count/deployments.apps': '2' } }),
    'ResourceQuota "a" is invalid: spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0');
  assert.equal(await refusal('b', { hard: { pods: '1500m', storage: '1Gi' } }),
    'ResourceQuota "b" is invalid: [spec.hard[pods]: Invalid value: "1500m": must be an integer, spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota]');
  assert.equal(await refusal('c', { hard: { widgets: '1' } }),
    'ResourceQuota "c" is invalid: [spec.hard[widgets]: Invalid value: "widgets": must be a standard resource type or fully qualified, spec.hard[widgets]: Invalid value: "widgets": must be a standard resource for quota]');
});

test('scopes that do not suit what is limited, unknown or conflicting, and selector operators', async () => {
  assert.equal(await refusal('d', { hard: { 'requests.cpu': '1' }, scopes: ['BestEffort'] }),
    'ResourceQuota "d" is invalid: spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource');
  assert.equal(await refusal('e', { hard: { pods: '1' }, scopes: ['Terminating', 'NotTerminating', 'Sometimes'] }),
    'ResourceQuota "e" is invalid: [spec.scopes: Invalid value: ["Terminating","NotTerminating","Sometimes"]: unsupported scope, spec.scopes: Invalid value: ["Terminating","NotTerminating","Sometimes"]: conflicting scopes]');
  assert.equal(await refusal('f', { hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'BestEffort', operator: 'In', values: ['x'] }] } }),
    'ResourceQuota "f" is invalid: spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity');
  assert.equal(await refusal('g', { hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In' }] } }),
    'ResourceQuota "g" is invalid: spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is \'In\' or \'NotIn\' for scope selector');
});

test('a valid quota is stored; its scopes never change', async () => {
  const q = await reg.store.create(quotas(), 'default', { metadata: { name: 'ok' }, spec: { hard: { pods: '2', 'requests.cpu': '1', 'count/jobs.batch': '3' }, scopes: ['NotBestEffort'] } } as never) as any;
  try {
    await reg.store.update(quotas(), 'default', 'ok', { ...q, spec: { ...q.spec, scopes: ['NotTerminating'] } } as never);
    assert.fail('updated');
  } catch (err: any) {
    assert.equal(err.status.message, 'ResourceQuota "ok" is invalid: spec.scopes: Invalid value: ["NotTerminating"]: field is immutable');
  }
  const hard = { pods: '3', 'requests.cpu': '1', 'count/jobs.batch': '3' };
  assert.deepEqual(((await reg.store.update(quotas(), 'default', 'ok', { ...q, spec: { ...q.spec, hard } } as never)) as any).object.spec.hard, hard);
});
