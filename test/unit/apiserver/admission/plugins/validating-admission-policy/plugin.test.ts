// The ValidatingAdmissionPolicy plugin over a real registry: policies and bindings followed
// through the watch, matching, params from ConfigMaps, validationActions and the refusal's
// Status as kube-apiserver writes it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../../../../src/api/status.ts';
import type { KubeObject } from '../../../../../../src/api/object.ts';
import { validatingAdmissionPolicy, validationFailureAnnotation } from '../../../../../../src/apiserver/admission/plugins/validating-admission-policy/plugin.ts';
import type { AdmissionPlugin } from '../../../../../../src/apiserver/admission/types.ts';
import { testRegistry, type TestRegistry } from '../../../../support/registry.ts';
import { attributes, binding, deployment, policy } from './fixtures.ts';

async function setup(): Promise<{ r: TestRegistry; plugin: AdmissionPlugin & { stop(): void }; put(o: KubeObject): Promise<void>; remove(resource: string, name: string): Promise<void> }> {
  const r = await testRegistry();
  const plugin = validatingAdmissionPolicy({ registry: r.store, catalog: r.catalog, now: () => new Date(), random: Math.random });
  await r.store.create(r.info('', 'namespaces'), undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dev', labels: { env: 'test' } } } as KubeObject);
  const resourceOf = (o: KubeObject) => o.kind === 'ValidatingAdmissionPolicy' ? 'validatingadmissionpolicies' : 'validatingadmissionpolicybindings';
  // the plugin sees a write once its watch delivered it: wait for the revision, then a little
  const settle = () => new Promise(res => setTimeout(res, 60));
  return {
    r, plugin,
    async put(o) { await r.store.create(r.info('admissionregistration.k8s.io', resourceOf(o)), undefined, o); await settle(); },
    async remove(resource, name) { await r.store.delete(r.info('admissionregistration.k8s.io', resource), undefined, name); await settle(); },
  };
}

async function refusal(p: AdmissionPlugin, a: Parameters<NonNullable<AdmissionPlugin['validate']>>[0]): Promise<StatusError> {
  try {
    await p.validate!(a);
  } catch (err) {
    assert.ok(err instanceof StatusError);
    return err;
  }
  assert.fail('admitted');
}

test('Deny refuses with the Status kube-apiserver writes; changes to policies apply at once', async () => {
  const { r, plugin, put, remove } = await setup();
  try {
    const deployments = r.info('apps', 'deployments');
    await plugin.validate!(attributes(deployments, { object: deployment(5) }));
    await put(policy('max-replicas', { validations: [{ expression: 'object.spec.replicas <= 3' }] }));
    await plugin.validate!(attributes(deployments, { object: deployment(5) })); // no binding yet
    await put(binding('max-replicas-b', 'max-replicas'));
    const err = await refusal(plugin, attributes(deployments, { object: deployment(5) }));
    const why = "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-b' denied request: failed expression: object.spec.replicas <= 3";
    assert.deepEqual(err.status, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 422, reason: 'Invalid',
      message: `deployments.apps "web" is forbidden: ${why}`,
      details: { name: 'web', group: 'apps', kind: 'deployments', causes: [{ message: why }] },
    });
    await plugin.validate!(attributes(deployments, { object: deployment(2) }));
    await plugin.validate!(attributes(r.info('', 'pods'), { object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } as KubeObject }));
    await remove('validatingadmissionpolicybindings', 'max-replicas-b');
    await plugin.validate!(attributes(deployments, { object: deployment(5) }));
  } finally { plugin.stop(); await r.close(); }
});

test('params from a ConfigMap; a missing param follows parameterNotFoundAction', async () => {
  const { r, plugin, put } = await setup();
  try {
    const deployments = r.info('apps', 'deployments');
    await put(policy('limit', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)', messageExpression: "'replicas must be at most ' + params.data.maxReplicas", reason: 'Forbidden' }],
    }));
    await put(binding('limit-b', 'limit', { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } }));
    const missing = await refusal(plugin, attributes(deployments, { object: deployment(5) }));
    assert.equal(missing.status.message, "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'limit' with binding 'limit-b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction");
    await r.store.create(r.info('', 'configmaps'), 'dev', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits', namespace: 'dev' }, data: { maxReplicas: '3' } } as KubeObject);
    const over = await refusal(plugin, attributes(deployments, { object: deployment(5) }));
    assert.equal(over.status.code, 403);
    assert.equal(over.status.reason, 'Forbidden');
    assert.match(over.status.message!, /denied request: replicas must be at most 3$/);
    await plugin.validate!(attributes(deployments, { object: deployment(3) }));
    // a cluster-scoped request has no namespace to find a namespaced param in
    await put(binding('allow-b', 'limit', { paramRef: { name: 'other', parameterNotFoundAction: 'Allow' }, matchResources: { namespaceSelector: { matchLabels: { env: 'prod' } } } }));
    await plugin.validate!(attributes(deployments, { object: deployment(3) }));
  } finally { plugin.stop(); await r.close(); }
});

test('params by selector: each selected object is evaluated', async () => {
  const { r, plugin, put } = await setup();
  try {
    for (const [name, max] of [['a', '4'], ['b', '2']]) {
      await r.store.create(r.info('', 'configmaps'), 'dev', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'dev', labels: { limit: 'yes' } }, data: { max } } as KubeObject);
    }
    await put(policy('sel', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'object.spec.replicas <= int(params.data.max)', messageExpression: "'over ' + params.metadata.name" }] }));
    await put(binding('sel-b', 'sel', { paramRef: { selector: { matchLabels: { limit: 'yes' } } }, validationActions: ['Warn'] }));
    const a = attributes(r.info('apps', 'deployments'), { object: deployment(3) });
    await plugin.validate!(a);
    assert.deepEqual(a.warnings, ["Validation failed for ValidatingAdmissionPolicy 'sel' with binding 'sel-b': over b"]);
  } finally { plugin.stop(); await r.close(); }
});

test('Warn and Audit actions admit, with a warning and the validation_failure annotation', async () => {
  const { r, plugin, put } = await setup();
  try {
    await put(policy('p', { validations: [{ expression: 'object.spec.replicas <= 3', message: 'too many' }], auditAnnotations: [{ key: 'seen', valueExpression: "'replicas ' + string(object.spec.replicas)" }] }));
    await put(binding('b', 'p', { validationActions: ['Warn', 'Audit'] }));
    const a = attributes(r.info('apps', 'deployments'), { object: deployment(5) });
    await plugin.validate!(a);
    assert.deepEqual(a.warnings, ["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': too many"]);
    assert.deepEqual(a.annotations, {
      [validationFailureAnnotation]: '[{"message":"too many","policy":"p","binding":"b","expressionIndex":0,"validationActions":["Warn","Audit"]}]',
      'p/seen': 'replicas 5',
    });
  } finally { plugin.stop(); await r.close(); }
});

test('matching: binding namespace and object selectors, excluded rules, operations', async () => {
  const { r, plugin, put } = await setup();
  try {
    const deployments = r.info('apps', 'deployments');
    await put(policy('p', { validations: [{ expression: 'false' }] }));
    await put(binding('b', 'p', { matchResources: { namespaceSelector: { matchLabels: { env: 'test' } }, objectSelector: { matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] } } }));
    await refusal(plugin, attributes(deployments, { object: deployment(1) }));
    await plugin.validate!(attributes(deployments, { object: deployment(1, { skip: 'yes' }) }));
    await plugin.validate!(attributes(deployments, { operation: 'DELETE', oldObject: deployment(1) }));
    await r.store.create(r.info('', 'namespaces'), undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod' } } as KubeObject);
    await plugin.validate!(attributes(deployments, { namespace: 'prod', object: deployment(1) }));
    await put(policy('q', { matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }], excludeResourceRules: [{ apiGroups: ['apps'], apiVersions: ['*'], operations: ['*'], resources: ['deployments'] }] }, validations: [{ expression: 'false', message: 'q says no' }] }));
    await put(binding('qb', 'q'));
    const pod = await refusal(plugin, attributes(r.info('', 'pods'), { object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' } } as KubeObject }));
    assert.equal(pod.status.message, "pods \"web\" is forbidden: ValidatingAdmissionPolicy 'q' with binding 'qb' denied request: q says no");
    // subresources need their own rule (pods/status), and policies never apply to policies
    await plugin.validate!(attributes(r.info('', 'pods'), { subresource: 'status', object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' } } as KubeObject }));
    await plugin.validate!(attributes(r.info('admissionregistration.k8s.io', 'validatingadmissionpolicies'), { namespace: '', object: policy('z', {}) }));
  } finally { plugin.stop(); await r.close(); }
});

test('the authorizer variable asks the server\'s authorizer for the requester', async () => {
  const r = await testRegistry();
  const asked: string[] = [];
  const plugin = validatingAdmissionPolicy({
      registry: r.store, catalog: r.catalog, now: () => new Date(), random: Math.random,
    authorizer: { authorize(at) { asked.push(`${at.user.name} ${at.verb} ${at.resource}`); return { decision: at.verb === 'get' ? 'allow' : 'no-opinion', reason: '' }; } },
  });
  try {
    await r.store.create(r.info('admissionregistration.k8s.io', 'validatingadmissionpolicies'), undefined, policy('authz', { validations: [{ expression: "authorizer.group('apps').resource('deployments').namespace('dev').check('delete').allowed()", message: 'only those who may delete' }] }));
    await r.store.create(r.info('admissionregistration.k8s.io', 'validatingadmissionpolicybindings'), undefined, binding('authz-b', 'authz'));
    await new Promise(res => setTimeout(res, 60));
    const err = await refusal(plugin, attributes(r.info('apps', 'deployments'), { object: deployment(1) }));
    assert.match(err.status.message!, /only those who may delete$/);
    assert.deepEqual(asked, ['jane delete deployments']);
  } finally { plugin.stop(); await r.close(); }
});

test('type checking: status.typeChecking names fields the matched kinds lack, once per generation', async () => {
  const { r, plugin, put } = await setup();
  try {
    const info = r.info('admissionregistration.k8s.io', 'validatingadmissionpolicies');
    await put(policy('typo', { validations: [{ expression: 'object.spec.replica > 1' }, { expression: 'object.spec.replicas > 1' }] }));
    let got: KubeObject | undefined;
    for (let i = 0; i < 50 && !(got?.status as { observedGeneration?: number } | undefined)?.observedGeneration; i++) {
      await new Promise(res => setTimeout(res, 20));
      got = await r.store.get(info, undefined, 'typo');
    }
    assert.deepEqual(got!.status, {
      observedGeneration: 1,
      typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'\n | object.spec.replica > 1\n | ...........^" }] },
    });
    assert.equal(got!.metadata.generation, 1);
  } finally { plugin.stop(); await r.close(); }
});

test('a paramKind that names nothing served misconfigures the policy (no binding named)', async () => {
  const { r, plugin, put } = await setup();
  try {
    await put(policy('nokind', { paramKind: { apiVersion: 'example.com/v1', kind: 'Limit' }, validations: [{ expression: 'true' }] }));
    await put(binding('nokind-b', 'nokind', { paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } }));
    const err = await refusal(plugin, attributes(r.info('apps', 'deployments'), { object: deployment(1) }));
    assert.equal(err.message, "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'nokind' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Limit'");
  } finally { plugin.stop(); await r.close(); }
});
