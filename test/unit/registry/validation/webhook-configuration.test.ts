// Webhook configurations written through the store: Kubernetes' defaults, and its refusals.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../../src/api/status.ts';
import { testRegistry, type TestRegistry } from '../../support/registry.ts';

let reg: TestRegistry;
before(async () => { reg = await testRegistry(); });
after(() => reg.close());

const hook = (over: Record<string, unknown> = {}) => ({
  name: 'x.example.com', clientConfig: { url: 'https://hooks.example.com/check' }, sideEffects: 'None', admissionReviewVersions: ['v1'],
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  ...over,
});

async function create(kind: 'Mutating' | 'Validating', name: string, webhooks: unknown[]) {
  const info = reg.info('admissionregistration.k8s.io', `${kind.toLowerCase()}webhookconfigurations`);
  return reg.store.create(info, undefined, { apiVersion: 'admissionregistration.k8s.io/v1', kind: `${kind}WebhookConfiguration`, metadata: { name }, webhooks });
}

async function refused(kind: 'Mutating' | 'Validating', webhooks: unknown[]): Promise<string> {
  try { await create(kind, 'bad', webhooks); } catch (err) {
    assert.ok(err instanceof StatusError);
    assert.equal(err.status.code, 422);
    return err.status.message!;
  }
  assert.fail('created');
}

test('defaults are filled as Kubernetes fills them, and generation counts changes', async () => {
  const m = await create('Mutating', 'defaults', [hook({ clientConfig: { service: { namespace: 'n', name: 's' } } })]);
  const w = (m.webhooks as Array<Record<string, any>>)[0]!;
  assert.deepEqual([w.failurePolicy, w.matchPolicy, w.namespaceSelector, w.objectSelector, w.timeoutSeconds, w.reinvocationPolicy, w.rules[0].scope, w.clientConfig.service.port],
    ['Fail', 'Equivalent', {}, {}, 10, 'Never', '*', 443]);
  assert.equal(m.metadata.generation, 1);
  const v = await create('Validating', 'defaults', [hook()]);
  assert.equal('reinvocationPolicy' in (v.webhooks as object[])[0]!, false);
});

test('the main refusals, worded as kube-apiserver words them', async () => {
  const prefix = 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "bad" is invalid: ';
  assert.equal(await refused('Validating', [hook({ name: 'short.name' })]), `${prefix}webhooks[0].name: Invalid value: "short.name": should be a domain with at least three segments separated by dots`);
  assert.equal(await refused('Validating', [hook(), hook()]), `${prefix}webhooks[1].name: Duplicate value: "x.example.com"`);
  assert.equal(await refused('Validating', [hook({ clientConfig: { url: 'http://hooks.example.com/x' } })]), `${prefix}webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`);
  assert.equal(await refused('Validating', [hook({ clientConfig: {} })]), `${prefix}webhooks[0].clientConfig: Required value: exactly one of url or service is required`);
  assert.equal(await refused('Validating', [hook({ clientConfig: { service: { namespace: 'n', name: 's', path: 'x', port: 0 } } })]), `${prefix}[webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive, webhooks[0].clientConfig.service.path: Invalid value: "x": must start with a '/', webhooks[0].clientConfig.service.path: Invalid value: "x": segment[0] may not be empty]`);
  assert.equal(await refused('Validating', [hook({ sideEffects: 'Some' })]), `${prefix}webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"`);
  assert.equal(await refused('Validating', [hook({ sideEffects: undefined })]), `${prefix}webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun`);
  assert.equal(await refused('Validating', [hook({ timeoutSeconds: 31 })]), `${prefix}webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds`);
  assert.equal(await refused('Validating', [hook({ admissionReviewVersions: ['v2'] })]), `${prefix}webhooks[0].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1`);
  assert.equal(await refused('Validating', [hook({ rules: [{ operations: ['CREATE', '*'], apiGroups: [''], apiVersions: ['v1'], resources: ['*', 'pods'] }] })]),
    `${prefix}[webhooks[0].rules[0].operations: Invalid value: ["CREATE","*"]: if '*' is present, must not specify other operations, webhooks[0].rules[0].resources: Invalid value: ["*","pods"]: if '*' is present, must not specify other resources without subresources]`);
  assert.equal(await refused('Validating', [hook({ failurePolicy: 'Maybe' })]), `${prefix}webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"`);
  assert.match(await refused('Validating', [hook({ matchConditions: [{ name: 'c', expression: 'object.metadata.name ==' }] })]), /webhooks\[0\]\.matchConditions\[0\]\.expression: Invalid value: "object\.metadata\.name ==": compilation failed: ERROR: <input>:1:/);
  assert.match(await refused('Validating', [hook({ matchConditions: [{ name: 'c', expression: 'params.x' }] })]), /compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'/);
  assert.equal(await refused('Mutating', [hook({ reinvocationPolicy: 'Always' })]), `MutatingWebhookConfiguration.admissionregistration.k8s.io "bad" is invalid: webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"`);
});
