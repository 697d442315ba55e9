// pods/eviction: the decisions as pure functions, then whole evictions through the router and
// handlers over a real registry (budgets' statuses set by hand, as the controller would).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../../src/api/status.ts';
import {
  budgetsGuarding, canIgnoreBudgets, takeDisruption, unhealthyMayGo, withCondition, type Budget, type EvictedPod,
} from '../../../../src/registry/subresources/eviction-decision.ts';
import { testApi, type TestApi } from '../../support/fake-request.ts';

const now = '2026-01-01T00:00:00Z';
const pod = (phase: string, ready: boolean, extra: Partial<EvictedPod['metadata']> = {}): EvictedPod => ({
  metadata: { name: 'p', namespace: 'ns', labels: { app: 'web' }, ...extra },
  status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});
const budget = (status: Budget['status'], spec: Budget['spec'] = { selector: { matchLabels: { app: 'web' } } }, generation = 1): Budget => ({
  metadata: { name: 'b', namespace: 'ns', generation }, spec, status,
});

function refusal(fn: () => unknown): StatusError {
  try { fn(); } catch (err) { if (err instanceof StatusError) return err; throw err; }
  assert.fail('expected a refusal');
}

test('finished, pending and terminating pods go without a budget; running ones do not', () => {
  for (const phase of ['Succeeded', 'Failed', 'Pending']) assert.equal(canIgnoreBudgets(pod(phase, false)), true, phase);
  assert.equal(canIgnoreBudgets(pod('Running', true)), false);
  assert.equal(canIgnoreBudgets(pod('Running', true, { deletionTimestamp: now })), true);
});

test('budgets guard pods of their namespace their selector matches; empty selectors match nothing', () => {
  const p = pod('Running', true);
  const other = { ...budget({}), metadata: { name: 'o', namespace: 'elsewhere' } };
  const empty = budget({}, { selector: {} });
  const none = budget({}, {});
  const bad = budget({}, { selector: { matchExpressions: [{ key: 'app', operator: 'Like' }] } });
  const miss = budget({}, { selector: { matchLabels: { app: 'db' } } });
  assert.deepEqual(budgetsGuarding(p, [other, empty, none, bad, miss]), []);
  assert.equal(budgetsGuarding(p, [budget({}), miss]).length, 1);
});

test('a disruption is taken: decremented, the pod recorded, the condition turned at zero', () => {
  const s = takeDisruption(budget({ observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', lastTransitionTime: 'earlier' }] }), 'p', now, false);
  assert.equal(s.disruptionsAllowed, 0);
  assert.deepEqual(s.disruptedPods, { p: now });
  assert.deepEqual(s.conditions, [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: 1, lastTransitionTime: now }]);
  const dry = takeDisruption(budget({ observedGeneration: 1, disruptionsAllowed: 2 }), 'p', now, true);
  assert.equal(dry.disruptionsAllowed, 1);
  assert.equal(dry.disruptedPods, undefined, 'a dry run records nothing');
});

test('refusals: 429 with the DisruptionBudget cause, 429 while the controller catches up, 403 when negative', () => {
  const none = refusal(() => takeDisruption(budget({ observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 }), 'p', now, false));
  assert.equal(none.status.code, 429);
  assert.equal(none.status.reason, 'TooManyRequests');
  assert.equal(none.status.message, "Cannot evict pod as it would violate the pod's disruption budget.");
  assert.deepEqual(none.status.details, { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget b needs 2 healthy pods and has 2 currently' }] });
  const stale = refusal(() => takeDisruption(budget({ observedGeneration: 1, disruptionsAllowed: 5 }, undefined, 2), 'p', now, false));
  assert.equal(stale.status.code, 429);
  assert.equal(stale.status.details?.retryAfterSeconds, 10);
  assert.equal(stale.headers?.['Retry-After'], '10');
  assert.match(stale.status.details!.causes![0]!.message!, /The disruption budget b is still being processed by the server\./);
  const negative = refusal(() => takeDisruption(budget({ observedGeneration: 1, disruptionsAllowed: -1 }), 'p', now, false));
  assert.equal(negative.status.code, 403);
  assert.equal(negative.status.message, 'poddisruptionbudget.policy "b" is forbidden: pdb disruptions allowed is negative');
});

test('unhealthy pods: AlwaysAllow lets them go; IfHealthyBudget only while the budget is met', () => {
  const unready = pod('Running', false);
  assert.equal(unhealthyMayGo(unready, budget({ currentHealthy: 1, desiredHealthy: 2 }, { unhealthyPodEvictionPolicy: 'AlwaysAllow' })), true);
  assert.equal(unhealthyMayGo(unready, budget({ currentHealthy: 1, desiredHealthy: 2 }, { unhealthyPodEvictionPolicy: 'IfHealthyBudget' })), false);
  assert.equal(unhealthyMayGo(unready, budget({ currentHealthy: 2, desiredHealthy: 2 })), true);
  assert.equal(unhealthyMayGo(unready, budget({ currentHealthy: 0, desiredHealthy: 0 })), false);
  assert.equal(unhealthyMayGo(pod('Running', true), budget({ currentHealthy: 5, desiredHealthy: 2 }, { unhealthyPodEvictionPolicy: 'AlwaysAllow' })), false);
});

test('a condition set keeps its transition time while its status stays', () => {
  const before = [{ type: 'DisruptionTarget', status: 'True', lastTransitionTime: 'then', reason: 'X' }];
  assert.deepEqual(withCondition(before, { type: 'DisruptionTarget', status: 'True', lastTransitionTime: now, reason: 'Y' }), [{ type: 'DisruptionTarget', status: 'True', lastTransitionTime: 'then', reason: 'Y' }]);
});

// ---- through the API

let api: TestApi;
before(async () => { api = await testApi(); });
after(() => api.close());

const pods = '/api/v1/namespaces/default/pods';
const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

async function runningPod(name: string, labels: Record<string, string>, ready = true) {
  const r = await api.request('POST', pods, { body: { metadata: { name, labels }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] } } });
  assert.equal(r.status, 201, r.text());
  const s = await api.request('PATCH', `${pods}/${name}/status`, { body: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(s.status, 200, s.text());
}

async function pdb(name: string, app: string, status: Record<string, unknown>, spec: Record<string, unknown> = {}) {
  const r = await api.request('POST', pdbs, { body: { metadata: { name }, spec: { maxUnavailable: 1, selector: { matchLabels: { app } }, ...spec } } });
  assert.equal(r.status, 201, r.text());
  const s = await api.request('PATCH', `${pdbs}/${name}/status`, { body: { status: { observedGeneration: 1, ...status } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(s.status, 200, s.text());
}

const evict = (name: string, extra: Record<string, unknown> = {}, query = '') =>
  api.request('POST', `${pods}/${name}/eviction${query}`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...extra } });

test('an eviction a budget allows: 201 Success, the budget charged, the pod marked and deleted', async () => {
  await runningPod('a1', { app: 'a' });
  await pdb('pa', 'a', { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });
  const r = await evict('a1', { deleteOptions: { gracePeriodSeconds: 30 } });
  assert.equal(r.status, 201, r.text());
  assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  const left = (await api.request('GET', `${pods}/a1`)).json();
  assert.ok(left.metadata.deletionTimestamp, 'deleted gracefully, with the grace period asked for');
  assert.equal(left.metadata.deletionGracePeriodSeconds, 30);
  const cond = left.status.conditions.find((c: { type: string }) => c.type === 'DisruptionTarget');
  assert.equal(cond.reason, 'EvictionByEvictionAPI');
  assert.equal(cond.message, 'Eviction API: evicting');
  const b = (await api.request('GET', `${pdbs}/pa`)).json();
  assert.equal(b.status.disruptionsAllowed, 0);
  assert.deepEqual(Object.keys(b.status.disruptedPods), ['a1']);
});

test('an eviction a budget refuses is a 429 and leaves the pod alone; more than one budget is a Failure Status (code 500)', async () => {
  await runningPod('b1', { app: 'b' });
  await pdb('pb', 'b', { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
  const r = await evict('b1');
  assert.equal(r.status, 429, r.text());
  assert.equal(r.json().details.causes[0].message, 'The disruption budget pb needs 1 healthy pods and has 1 currently');
  assert.equal((await api.request('GET', `${pods}/b1`)).json().metadata.deletionTimestamp, undefined);
  await pdb('pb2', 'b', { disruptionsAllowed: 1 });
  const two = await evict('b1');
  assert.equal(two.status, 201, 'the HTTP status kube-apiserver gives this Status');
  assert.deepEqual(two.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 });
});

test('dry run charges nothing; a name mismatch is a 400; a pod without budget or not running simply goes', async () => {
  await runningPod('c1', { app: 'c' });
  await pdb('pc', 'c', { disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 0 });
  const dry = await evict('c1', {}, '?dryRun=All');
  assert.equal(dry.status, 201, dry.text());
  assert.equal((await api.request('GET', `${pdbs}/pc`)).json().status.disruptionsAllowed, 1);
  assert.equal((await api.request('GET', `${pods}/c1`)).json().metadata.deletionTimestamp, undefined);
  const bodyDry = await evict('c1', { deleteOptions: { dryRun: ['All'] } });
  assert.equal(bodyDry.status, 201, bodyDry.text());
  assert.equal((await api.request('GET', `${pdbs}/pc`)).json().status.disruptionsAllowed, 1, 'a dry run in the body too');
  const mismatch = await api.request('POST', `${pods}/c1/eviction`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } } });
  assert.equal(mismatch.status, 400);
  assert.equal(mismatch.json().message, 'name in URL does not match name in Eviction object');
  await runningPod('free', { app: 'unguarded' });
  assert.equal((await evict('free', { deleteOptions: { gracePeriodSeconds: 0 } })).status, 201);
  assert.equal((await api.request('GET', `${pods}/free`)).status, 404);
  // a Pending pod is deleted whatever its budget says (the v1beta1 body is still accepted)
  const p = await api.request('POST', pods, { body: { metadata: { name: 'pend', labels: { app: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } });
  assert.equal(p.status, 201);
  const beta = await api.request('POST', `${pods}/pend/eviction`, { body: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: 'pend' } } });
  assert.equal(beta.status, 201, beta.text());
  const uid = await evict('c1', { deleteOptions: { preconditions: { uid: 'not-it' } } });
  assert.equal(uid.status, 409, uid.text());
});

test('an unready pod goes without charging a met budget (IfHealthyBudget)', async () => {
  await runningPod('d1', { app: 'd' }, false);
  await pdb('pd', 'd', { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 });
  const r = await evict('d1', { deleteOptions: { gracePeriodSeconds: 0 } });
  assert.equal(r.status, 201, r.text());
  assert.equal((await api.request('GET', `${pdbs}/pd`)).json().status.disruptionsAllowed, 0);
});
