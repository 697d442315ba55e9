import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../../../../../src/api/status.ts';
import { crdStrategy } from '../../../../../src/registry/apiextensions/crd-strategy.ts';
import type { Crd } from '../../../../../src/registry/apiextensions/crd-types.ts';

const ctx = { info: {} as never, now: new Date(), random: Math.random };
const pem = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64');

function crd(conversion: unknown, extra: Record<string, unknown> = {}): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'targets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'targets', kind: 'Target' }, versions: [{ name: 'v1', served: true, storage: false }, { name: 'v2', served: true, storage: true }], conversion, ...extra },
    status: { storedVersions: ['v2'] },
  } as Crd;
}

const messages = (obj: Crd, old?: Crd) => (old ? crdStrategy.validateUpdate(obj, old, ctx) : crdStrategy.validateCreate(obj, ctx)).map(fieldErrorMessage);
const webhook = (clientConfig: unknown, conversionReviewVersions: unknown = ['v1']) => ({ strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions } });

test('a valid Webhook conversion passes, with a url or a service (its port defaulted to 443)', async () => {
  assert.deepEqual(messages(crd(webhook({ url: 'https://hook.example.com/convert', caBundle: pem }))), []);
  const bySvc = crd(webhook({ service: { namespace: 'ns', name: 'conv', path: '/convert' } }, ['v1beta1']));
  await crdStrategy.prepareForCreate(bySvc, ctx);
  assert.equal(bySvc.spec.conversion!.webhook!.clientConfig!.service!.port, 443);
  assert.deepEqual(messages(bySvc), []);
  assert.deepEqual(messages(crd({ strategy: 'None' })), []);
});

test('Webhook conversion settings are refused with kube-apiserver\'s paths and words', () => {
  assert.deepEqual(messages(crd({ strategy: 'Webhook' })), [
    'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
    'spec.conversion.conversionReviewVersions: Required value',
  ]);
  assert.deepEqual(messages(crd(webhook({ url: 'https://a', service: { namespace: 'n', name: 's', port: 443 } }))), ['spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required']);
  assert.deepEqual(messages(crd(webhook({ url: 'http://hook?x=1' }))), [
    'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
    'spec.conversion.webhookClientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL',
  ]);
  assert.deepEqual(messages(crd(webhook({ service: { namespace: '', name: '', port: 0, path: 'x' } }))), [
    'spec.conversion.webhookClientConfig.service.name: Required value',
    'spec.conversion.webhookClientConfig.service.namespace: Required value',
    'spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
    'spec.conversion.webhookClientConfig.service.path: Invalid value: "x": must start with a \'/\'',
    'spec.conversion.webhookClientConfig.service.path: Invalid value: "x": segment[0] may not be empty',
  ]);
  assert.deepEqual(messages(crd(webhook({ url: 'https://a' }, ['v3', 'v3', 'V4']))), [
    'spec.conversion.conversionReviewVersions[1]: Invalid value: "v3": duplicate version',
    'spec.conversion.conversionReviewVersions[2]: Invalid value: "V4": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
    'spec.conversion.conversionReviewVersions: Invalid value: ["v3","v3","V4"]: must include at least one of v1, v1beta1',
  ]);
  assert.deepEqual(messages(crd({ strategy: 'Other' })), ['spec.conversion.strategy: Unsupported value: "Other": supported values: "None", "Webhook"']);
  assert.deepEqual(messages(crd({ strategy: 'None', webhook: { clientConfig: { url: 'https://a' }, conversionReviewVersions: ['v1'] } })), [
    'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
    'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
  ]);
});

test('preserveUnknownFields: never newly true, and only with conversion None', () => {
  assert.deepEqual(messages(crd(webhook({ url: 'https://a' }), { preserveUnknownFields: true })), [
    'spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true',
    'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
  ]);
  // a CRD that has it already may keep it (conversion None)
  const old = crd({ strategy: 'None' }, { preserveUnknownFields: true });
  assert.deepEqual(messages(crd({ strategy: 'None' }, { preserveUnknownFields: true }), old), []);
});

test('an invalid caBundle is refused once the CRD is established, unless it was invalid already', () => {
  const bad = Buffer.from('not a certificate').toString('base64');
  assert.deepEqual(messages(crd(webhook({ url: 'https://a', caBundle: bad }))), [], 'a new CRD is not established yet');
  const established = crd(webhook({ url: 'https://a', caBundle: pem }));
  established.status!.conditions = [{ type: 'Established', status: 'True' }];
  assert.deepEqual(messages(crd(webhook({ url: 'https://a', caBundle: bad })), established), [
    `spec.conversion.webhookClientConfig.caBundle: Invalid value: "${bad}": unable to load root certificates: unable to parse bytes as PEM block`,
  ]);
  const wasBad = crd(webhook({ url: 'https://a', caBundle: bad }));
  wasBad.status!.conditions = established.status!.conditions;
  assert.deepEqual(messages(crd(webhook({ url: 'https://a', caBundle: bad })), wasBad), []);
});

test('a CRD stored with no known review version may keep it; one that had one may not lose it', () => {
  const unknown = crd(webhook({ url: 'https://a' }, ['v9']));
  assert.deepEqual(messages(crd(webhook({ url: 'https://b' }, ['v9'])), unknown), []);
  assert.deepEqual(messages(crd(webhook({ url: 'https://b' }, ['v9'])), crd(webhook({ url: 'https://a' }))), ['spec.conversion.conversionReviewVersions: Invalid value: ["v9"]: must include at least one of v1, v1beta1']);
});

test('storedVersions must hold the storage version and only versions still defined', async () => {
  const old = crd({ strategy: 'None' });
  old.status = { storedVersions: ['v1', 'v2'] };
  const next = structuredClone(old);
  next.spec.versions = next.spec.versions.filter(v => v.name !== 'v1');
  crdStrategy.prepareForUpdate(next, old, ctx);
  assert.deepEqual(messages(next, old), ['status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions']);
  // moving storage back to v1 keeps both, in the order they were stored in
  const moved = structuredClone(old);
  moved.spec.versions = [{ name: 'v1', served: true, storage: true }, { name: 'v2', served: true, storage: false }];
  crdStrategy.prepareForUpdate(moved, old, ctx);
  assert.deepEqual(moved.status!.storedVersions, ['v1', 'v2']);
  assert.deepEqual(messages(moved, old), []);
  // a write through status (a storage migration) is not checked
  assert.deepEqual(crdStrategy.validateStatusUpdate!(next, old, ctx), []);
});
