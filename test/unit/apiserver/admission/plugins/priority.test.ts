// Priority through the handlers: a new pod's priority and preemptionPolicy from its class, the
// globalDefault class or 0/PreemptLowerPriority; refusals in Kubernetes' words; updates keep
// what the create set; one globalDefault class only; the system classes usable in any namespace.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../../support/fake-request.ts';
import { ensureSystemPriorityClasses } from '../../../../../src/apiserver/bootstrap-priority-classes.ts';

let api: TestApi;
const pcs = '/apis/scheduling.k8s.io/v1/priorityclasses';
const pods = '/api/v1/namespaces/default/pods';

before(async () => {
  api = await testApi({ admission: ['Priority'] });
  await ensureSystemPriorityClasses(api.deps.registry, api.deps.catalog);
});
after(() => api.close());

const pod = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } });
const pc = (name: string, value: number, extra: Record<string, unknown> = {}) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra });

async function created(path: string, body: unknown): Promise<any> {
  const r = await api.request('POST', path, { body });
  assert.equal(r.status, 201, r.text());
  return r.json();
}
async function refused(path: string, body: unknown, code: number): Promise<string> {
  const r = await api.request('POST', path, { body });
  assert.equal(r.status, code, r.text());
  return r.json().message;
}

test('no class and no default: priority 0 and PreemptLowerPriority, no class name', async () => {
  const p = await created(pods, pod('plain'));
  assert.equal(p.spec.priority, 0);
  assert.equal(p.spec.preemptionPolicy, 'PreemptLowerPriority');
  assert.equal('priorityClassName' in p.spec, false);
});

test('a named class gives its value and preemptionPolicy; a missing one is refused', async () => {
  await created(pcs, pc('high', 1000, { preemptionPolicy: 'Never', description: 'important' }));
  const p = await created(pods, pod('high-pod', { priorityClassName: 'high' }));
  assert.deepEqual([p.spec.priority, p.spec.preemptionPolicy], [1000, 'Never']);
  assert.equal(await refused(pods, pod('ghost', { priorityClassName: 'nope' }), 403), 'pods "ghost" is forbidden: no PriorityClass with name nope was found');
});

test('a priority or preemptionPolicy the pod states must be what the class gives', async () => {
  assert.equal(await refused(pods, pod('liar', { priorityClassName: 'high', priority: 5 }), 403),
    'pods "liar" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name');
  assert.equal(await refused(pods, pod('liar2', { priorityClassName: 'high', preemptionPolicy: 'PreemptLowerPriority' }), 403),
    'pods "liar2" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name');
  assert.equal(await refused(pods, pod('liar3', { priority: 7 }), 403),
    'pods "liar3" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name');
  const same = await created(pods, pod('honest', { priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' }));
  assert.equal(same.spec.priority, 1000);
});

test('the system classes exist from the start and any namespace may use them', async () => {
  const list = (await api.request('GET', pcs)).json().items.map((i: any) => `${i.metadata.name} ${i.value} ${i.preemptionPolicy}`);
  assert.ok(list.includes('system-cluster-critical 2000000000 PreemptLowerPriority'));
  assert.ok(list.includes('system-node-critical 2000001000 PreemptLowerPriority'));
  const p = await created(pods, pod('critical', { priorityClassName: 'system-node-critical' }));
  assert.equal(p.spec.priority, 2000001000);
});

test('an update keeps the priority and preemptionPolicy the create set', async () => {
  const cur = (await api.request('GET', `${pods}/high-pod`)).json();
  delete cur.spec.priority;
  delete cur.spec.preemptionPolicy;
  cur.metadata.labels = { touched: 'yes' };
  const r = await api.request('PUT', `${pods}/high-pod`, { body: cur });
  assert.equal(r.status, 200, r.text());
  assert.deepEqual([r.json().spec.priority, r.json().spec.preemptionPolicy], [1000, 'Never']);
});

test('the globalDefault class is given to pods naming none; a second default is refused', async () => {
  await created(pcs, pc('everyday', 10, { globalDefault: true }));
  const p = await created(pods, pod('defaulted'));
  assert.deepEqual([p.spec.priorityClassName, p.spec.priority, p.spec.preemptionPolicy], ['everyday', 10, 'PreemptLowerPriority']);
  assert.equal(await refused(pcs, pc('another', 20, { globalDefault: true }), 403),
    'priorityclasses.scheduling.k8s.io "another" is forbidden: PriorityClass everyday is already marked as default. Only one default can exist');
  // marking another class default on update is refused too; the default itself may be rewritten
  const high = (await api.request('GET', `${pcs}/high`)).json();
  const marked = await api.request('PUT', `${pcs}/high`, { body: { ...high, globalDefault: true } });
  assert.equal(marked.status, 403);
  const everyday = (await api.request('GET', `${pcs}/everyday`)).json();
  assert.equal((await api.request('PUT', `${pcs}/everyday`, { body: { ...everyday, description: 'the usual' } })).status, 200);
  assert.equal((await api.request('DELETE', `${pcs}/everyday`)).status, 200);
});

test('PriorityClass validation: user values, reserved names, immutable value and preemptionPolicy', async () => {
  assert.equal(await refused(pcs, pc('huge', 1000000001), 422),
    'PriorityClass.scheduling.k8s.io "huge" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000');
  assert.equal(await refused(pcs, pc('system-mine', 5), 422),
    'PriorityClass.scheduling.k8s.io "system-mine" is invalid: metadata.name: Forbidden: priority class names with \'system-\' prefix are reserved for system use only. error: system-mine is not a known system priority class');
  assert.equal(await refused(pcs, pc('odd', 1, { preemptionPolicy: 'Sometimes' }), 422),
    'PriorityClass.scheduling.k8s.io "odd" is invalid: preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"');
  const high = (await api.request('GET', `${pcs}/high`)).json();
  const changed = await api.request('PUT', `${pcs}/high`, { body: { ...high, value: 2000, preemptionPolicy: 'PreemptLowerPriority' } });
  assert.equal(changed.status, 422);
  assert.equal(changed.json().message, 'PriorityClass.scheduling.k8s.io "high" is invalid: [value: Forbidden: may not be changed in an update., preemptionPolicy: Invalid value: "PreemptLowerPriority": field is immutable]');
  // the system class that already exists is "already exists", not reserved
  assert.equal(await refused(pcs, pc('system-cluster-critical', 2000000000), 409), 'priorityclasses.scheduling.k8s.io "system-cluster-critical" already exists');
  assert.equal(await refused(pcs, pc('system-cluster-critical', 7), 422),
    'PriorityClass.scheduling.k8s.io "system-cluster-critical" is invalid: metadata.name: Forbidden: priority class names with \'system-\' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000');
});
