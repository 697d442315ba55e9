// The MutatingAdmissionPolicy plugin: ApplyConfiguration merged as server-side apply merges,
// JSONPatch applied, params and matchConditions, and failures refused after every binding ran.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../../../src/api/object.ts';
import { StatusError } from '../../../../../../src/api/status.ts';
import { compileMutatingPolicy } from '../../../../../../src/apiserver/admission/plugins/mutating-admission-policy/compiled-policy.ts';
import { mutatingAdmissionPolicy } from '../../../../../../src/apiserver/admission/plugins/mutating-admission-policy/plugin.ts';
import { testRegistry } from '../../../../support/registry.ts';
import { attributes, deploymentRules } from '../validating-admission-policy/fixtures.ts';

const map = (name: string, spec: Record<string, unknown>) => compileMutatingPolicy({ metadata: { name }, spec: { matchConstraints: deploymentRules, ...spec } } as unknown as KubeObject);
const bind = (name: string, policyName: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { policyName, ...spec } }) as unknown as KubeObject;

function withContainers(): KubeObject {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'dev', labels: { app: 'web' } },
    spec: { replicas: 1, template: { spec: { containers: [{ name: 'a', image: 'nginx' }, { name: 'b', image: 'busybox' }] } } },
  } as unknown as KubeObject;
}

test('ApplyConfiguration merges fields and list-map items by key; JSONPatch applies in order', async () => {
  const r = await testRegistry();
  try {
    const policies = [
      map('a-apply', { mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression:
        "Object{metadata: Object.metadata{labels: {'team': 'x'}}, spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: 'b', imagePullPolicy: 'Always'}]}}}}" } }] }),
      map('b-patch', { mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression:
        "[JSONPatch{op: 'replace', path: '/spec/replicas', value: object.spec.replicas + 1}, JSONPatch{op: 'add', path: '/metadata/annotations', value: {jsonpatch.escapeKey('a/b'): 'seen'}}]" } }] }),
    ];
    const plugin = mutatingAdmissionPolicy({ registry: r.store, catalog: r.catalog, now: () => new Date(), random: Math.random }, {
      policies: () => policies, bindings: () => [bind('a', 'a-apply'), bind('b', 'b-patch')], synced: Promise.resolve(),
    });
    const object = withContainers();
    await plugin.admit!(attributes(r.info('apps', 'deployments'), { object }));
    // changed in place: the chain hands plugins the object the store goes on to write
    const o = object as unknown as { metadata: { labels: object; annotations: object }; spec: { replicas: number; template: { spec: { containers: object[] } } } };
    assert.deepEqual(o.metadata.labels, { app: 'web', team: 'x' });
    assert.deepEqual(o.metadata.annotations, { 'a~1b': 'seen' });
    assert.equal(o.spec.replicas, 2);
    // merged by name, then given Kubernetes' defaults as a patched object is
    const defaulted = { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always', resources: {} };
    assert.deepEqual(o.spec.template.spec.containers, [{ name: 'a', image: 'nginx', ...defaulted }, { name: 'b', image: 'busybox', ...defaulted }]);
  } finally { await r.close(); }
});

test('matchConditions skip; failures are refused in the dispatcher\'s words unless Ignore', async () => {
  const r = await testRegistry();
  try {
    const policies = [
      map('skip', { matchConditions: [{ name: 'big', expression: 'object.spec.replicas > 5' }], mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: "[JSONPatch{op: 'remove', path: '/spec'}]" } }] }),
      map('broken', { mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: "[JSONPatch{op: 'remove', path: '/nope/x'}]" } }] }),
      map('ignored', { failurePolicy: 'Ignore', mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'object.missing' } }] }),
    ];
    const plugin = mutatingAdmissionPolicy({ registry: r.store, catalog: r.catalog, now: () => new Date(), random: Math.random }, {
      policies: () => policies, bindings: () => [bind('s', 'skip'), bind('b', 'broken'), bind('i', 'ignored')], synced: Promise.resolve(),
    });
    const err = await Promise.resolve(plugin.admit!(attributes(r.info('apps', 'deployments'), { object: withContainers() }))).then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof StatusError);
    assert.equal(err.status.code, 403);
    assert.match(err.message, /^deployments\.apps "web" is forbidden: policy 'broken' with binding 'b' denied request: JSON Patch: /);
  } finally { await r.close(); }
});
