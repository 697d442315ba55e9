// Reinvocation of the mutating phase through the chain, against webhooks served by the test over
// HTTPS and MutatingAdmissionPolicies: who is called again after a later change, that the
// built-in plugins run again, that a webhook is never called first in the second run, and that
// there is never a third run.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../../src/api/log.ts';
import type { KubeObject } from '../../../../src/api/object.ts';
import { AdmissionChain } from '../../../../src/apiserver/admission/chain.ts';
import type { AdmissionPlugin } from '../../../../src/apiserver/admission/types.ts';
import { mutatingWebhookPlugin } from '../../../../src/apiserver/admission/plugins/webhooks/mutating.ts';
import { staticSource } from '../../../../src/apiserver/admission/plugins/webhooks/source.ts';
import { compileMutatingPolicy } from '../../../../src/apiserver/admission/plugins/mutating-admission-policy/compiled-policy.ts';
import { mutatingAdmissionPolicy } from '../../../../src/apiserver/admission/plugins/mutating-admission-policy/plugin.ts';
import { jsonPatch, respond, startWebhookServer, type Review, type WebhookServer } from '../../../support/webhook-server.ts';
import { testRegistry, type TestRegistry } from '../../support/registry.ts';
import { attributes, configuration } from './plugins/webhooks/attributes.ts';

let server: WebhookServer;
let reg: TestRegistry;
before(async () => { server = await startWebhookServer(); reg = await testRegistry(); });
after(async () => { await server.close(); await reg.close(); });

const labels = (r: Review) => (r.request.object.metadata.labels ?? {}) as Record<string, string>;
const cc = (path: string) => ({ url: server.url(path), caBundle: server.caBundle });

/** a webhook at `path` that records what it saw and answers with `patch` (if any) */
function hook(calls: string[], path: string, patch?: (r: Review) => unknown[] | undefined): void {
  server.on(path, r => {
    calls.push(`${path} ${JSON.stringify(labels(r))}`);
    const ops = patch?.(r);
    return ops ? respond(r, jsonPatch(ops)) : respond(r);
  });
}

function webhooks(...hooks: Array<Record<string, unknown>>): AdmissionPlugin {
  return mutatingWebhookPlugin({ registry: reg.store, catalog: reg.catalog, log: silentLogger }, staticSource([configuration('c', hooks)]));
}

/** a built-in plugin stand-in that counts its runs and may change the object */
function builtIn(runs: string[], change?: (o: KubeObject) => void): AdmissionPlugin {
  return { name: 'BuiltIn', admit(a) { runs.push(JSON.stringify(a.object!.metadata.labels)); change?.(a.object!); } };
}

const podRules = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['pods'] }] };

function policies(...specs: Array<[string, Record<string, unknown>]>): AdmissionPlugin {
  const compiled = specs.map(([name, spec]) => compileMutatingPolicy({ metadata: { name }, spec: { matchConstraints: podRules, failurePolicy: 'Fail', ...spec } } as unknown as KubeObject));
  const bindings = specs.map(([name]) => ({ metadata: { name: `${name}-b` }, spec: { policyName: name } }) as unknown as KubeObject);
  return mutatingAdmissionPolicy({ registry: reg.store, catalog: reg.catalog, now: () => new Date(), random: Math.random }, { policies: () => compiled, bindings: () => bindings, synced: Promise.resolve() });
}

/** appends `x` to the label `runs` each time it runs */
const appendRun = { patchType: 'JSONPatch', jsonPatch: { expression: "[JSONPatch{op: 'add', path: '/metadata/labels/runs', value: ('runs' in object.metadata.labels ? object.metadata.labels.runs : '') + 'x'}]" } };

test('IfNeeded: a webhook is called again when a later one changed the object; Never is not; the built-in plugins run again', async () => {
  for (const [policy, expected] of [['IfNeeded', 2], ['Never', 1]] as const) {
    const calls: string[] = [];
    const runs: string[] = [];
    hook(calls, '/first');
    hook(calls, '/second', r => labels(r).second ? undefined : [{ op: 'add', path: '/metadata/labels/second', value: 'done' }]);
    const a = attributes();
    await new AdmissionChain([builtIn(runs), webhooks({ name: 'first.example.com', reinvocationPolicy: policy, clientConfig: cc('/first') }, { name: 'second.example.com', clientConfig: cc('/second') })]).admit(a);
    assert.deepEqual(calls, [
      '/first {"app":"web"}', '/second {"app":"web"}',
      ...(expected === 2 ? ['/first {"app":"web","second":"done"}'] : []),
    ], policy);
    // the built-in plugins run again whenever a webhook changed the object
    assert.deepEqual(runs, ['{"app":"web"}', '{"app":"web","second":"done"}']);
    assert.equal(a.annotations['mutation.webhook.admission.k8s.io/round_1_index_0'] !== undefined, expected === 2);
  }
});

test('nothing changed: one run of everything', async () => {
  const calls: string[] = [];
  const runs: string[] = [];
  hook(calls, '/quiet');
  await new AdmissionChain([builtIn(runs), webhooks({ name: 'quiet.example.com', reinvocationPolicy: 'IfNeeded', clientConfig: cc('/quiet') })]).admit(attributes());
  assert.equal(calls.length, 1);
  assert.equal(runs.length, 1);
});

test('a webhook skipped in the first run is not called in the second, even when it would now match', async () => {
  const calls: string[] = [];
  hook(calls, '/late');
  hook(calls, '/tagger', r => labels(r).tier ? undefined : [{ op: 'add', path: '/metadata/labels/tier', value: 'gold' }]);
  await new AdmissionChain([webhooks(
    { name: 'late.example.com', reinvocationPolicy: 'IfNeeded', objectSelector: { matchLabels: { tier: 'gold' } }, clientConfig: cc('/late') },
    { name: 'tagger.example.com', reinvocationPolicy: 'IfNeeded', clientConfig: cc('/tagger') },
  )]).admit(attributes());
  assert.deepEqual(calls, ['/tagger {"app":"web"}']);
});

test('at most one extra run: webhooks that keep changing the object are called twice each', async () => {
  const calls: string[] = [];
  let n = 0;
  hook(calls, '/a', () => [{ op: 'add', path: '/metadata/labels/a', value: String(++n) }]);
  hook(calls, '/b', () => [{ op: 'add', path: '/metadata/labels/b', value: String(++n) }]);
  const a = attributes();
  await new AdmissionChain([webhooks(
    { name: 'a.example.com', reinvocationPolicy: 'IfNeeded', clientConfig: cc('/a') },
    { name: 'b.example.com', reinvocationPolicy: 'IfNeeded', clientConfig: cc('/b') },
  )]).admit(a);
  assert.deepEqual(calls.map(c => c.split(' ')[0]), ['/a', '/b', '/a', '/b']);
  assert.deepEqual(a.object!.metadata.labels, { app: 'web', a: '3', b: '4' });
});

test('a built-in plugin\'s change in the second run calls back an IfNeeded webhook that ran last', async () => {
  const calls: string[] = [];
  hook(calls, '/last');
  hook(calls, '/first-changer', r => labels(r).changed ? undefined : [{ op: 'add', path: '/metadata/labels/changed', value: 'y' }]);
  const runs: string[] = [];
  // the built-in plugin reacts to the webhook's change only when it runs again
  const follower = builtIn(runs, o => { if (o.metadata.labels!.changed) o.metadata.labels!.followed = 'y'; });
  await new AdmissionChain([follower, webhooks(
    { name: 'first-changer.example.com', clientConfig: cc('/first-changer') },
    { name: 'last.example.com', reinvocationPolicy: 'IfNeeded', clientConfig: cc('/last') },
  )]).admit(attributes());
  assert.deepEqual(calls, ['/first-changer {"app":"web"}', '/last {"app":"web","changed":"y"}', '/last {"app":"web","changed":"y","followed":"y"}']);
});

test('MutatingAdmissionPolicy: IfNeeded runs again (any mutation asks for the second run), Never does not', async () => {
  for (const [reinvocationPolicy, runs] of [['IfNeeded', 'xx'], ['Never', 'x']] as const) {
    const a = attributes();
    await new AdmissionChain([policies(['count', { reinvocationPolicy, mutations: [appendRun] }])]).admit(a);
    assert.equal(a.object!.metadata.labels!.runs, runs, reinvocationPolicy);
  }
});

test('MutatingAdmissionPolicy: an IfNeeded policy is run again after a later policy changed the object', async () => {
  const copy = { patchType: 'ApplyConfiguration', applyConfiguration: { expression: "Object{metadata: Object.metadata{labels: {'copy': 'tier' in object.metadata.labels ? object.metadata.labels.tier : 'none'}}}" } };
  const setTier = { patchType: 'ApplyConfiguration', applyConfiguration: { expression: "Object{metadata: Object.metadata{labels: {'tier': 'gold'}}}" } };
  const a = attributes();
  await new AdmissionChain([policies(['a-copy', { reinvocationPolicy: 'IfNeeded', mutations: [copy] }], ['b-tier', { reinvocationPolicy: 'Never', mutations: [setTier] }])]).admit(a);
  assert.deepEqual(a.object!.metadata.labels, { app: 'web', copy: 'gold', tier: 'gold' });
  const b = attributes();
  await new AdmissionChain([policies(['a-copy', { reinvocationPolicy: 'Never', mutations: [copy] }], ['b-tier', { reinvocationPolicy: 'Never', mutations: [setTier] }])]).admit(b);
  assert.deepEqual(b.object!.metadata.labels, { app: 'web', copy: 'none', tier: 'gold' });
});

test('a policy\'s change in the second run calls back an IfNeeded webhook', async () => {
  const calls: string[] = [];
  hook(calls, '/watcher');
  await new AdmissionChain([
    policies(['count', { reinvocationPolicy: 'IfNeeded', mutations: [appendRun] }]),
    webhooks({ name: 'watcher.example.com', reinvocationPolicy: 'IfNeeded', clientConfig: cc('/watcher') }),
  ]).admit(attributes());
  assert.deepEqual(calls, ['/watcher {"app":"web","runs":"x"}', '/watcher {"app":"web","runs":"xx"}']);
});

test('the built-in plugins\' second run judges what the webhooks did: a class a webhook named after Priority ran is refused', async () => {
  const { priority } = await import('../../../../src/apiserver/admission/plugins/priority.ts');
  await reg.store.create(reg.info('scheduling.k8s.io', 'priorityclasses'), undefined, { metadata: { name: 'gold' }, value: 1000 } as unknown as KubeObject);
  server.on('/classify', r => (r.request.object.spec.priorityClassName ? respond(r) : respond(r, jsonPatch([{ op: 'add', path: '/spec/priorityClassName', value: 'gold' }]))));
  const chain = new AdmissionChain([
    priority({ registry: reg.store, catalog: reg.catalog, now: () => new Date(), random: Math.random }),
    webhooks({ name: 'classify.example.com', clientConfig: cc('/classify') }),
  ]);
  const err = await chain.admit(attributes()).then(() => undefined, (e: unknown) => e as Error);
  assert.equal(err?.message, 'pods "p" is forbidden: the integer value of priority (0) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name');
});
