import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkDecodedObject, parseFieldValidation } from '../../../../src/schema/decode-checks/field-validation.ts';
import { findUnknownFields, pruneUnknownFields } from '../../../../src/schema/decode-checks/unknown-fields.ts';
import { firstDecodeError } from '../../../../src/schema/decode-checks/type-errors.ts';
import { StatusError } from '../../../../src/api/status.ts';

const deploy = 'io.k8s.api.apps.v1.Deployment';
const pod = 'io.k8s.api.core.v1.Pod';

const withUnknown = () => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', labels: { anything: 'goes' } },
  spec: {
    replicas: 1, bogus: true,
    selector: { matchLabels: { a: 'b' } },
    template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i', imagePullPolisy: 'Always' }] } },
  },
});

test('parseFieldValidation: empty means Warn; anything but the three levels is refused', () => {
  assert.equal(parseFieldValidation(undefined), 'Warn');
  assert.equal(parseFieldValidation(''), 'Warn');
  assert.equal(parseFieldValidation('Strict'), 'Strict');
  assert.equal(parseFieldValidation('strict'), undefined);
});

test('unknown fields are found by path, with list indices; map keys are never unknown', () => {
  assert.deepEqual(findUnknownFields(withUnknown(), deploy), ['spec.bogus', 'spec.template.spec.containers[0].imagePullPolisy']);
  const obj = withUnknown();
  assert.deepEqual(pruneUnknownFields(obj, deploy).length, 2);
  assert.equal('bogus' in obj.spec, false);
  assert.equal('imagePullPolisy' in obj.spec.template.spec.containers[0]!, false);
  assert.deepEqual(obj.metadata.labels, { anything: 'goes' });
});

test('Warn drops unknown fields and returns one warning per field, duplicates included', () => {
  const obj = withUnknown();
  const warnings = checkDecodedObject(obj, deploy, { kind: 'Deployment', version: 'v1', fieldValidation: 'Warn', duplicateFields: ['metadata.name'] });
  assert.deepEqual(warnings, ['duplicate field "metadata.name"', 'unknown field "spec.bogus"', 'unknown field "spec.template.spec.containers[0].imagePullPolisy"']);
  assert.equal('bogus' in obj.spec, false);
});

test('Ignore drops silently; Strict fails with every problem in one 400', () => {
  const obj = withUnknown();
  assert.deepEqual(checkDecodedObject(obj, deploy, { kind: 'Deployment', version: 'v1', fieldValidation: 'Ignore' }), []);
  assert.equal('bogus' in obj.spec, false);
  assert.throws(() => checkDecodedObject(withUnknown(), deploy, { kind: 'Deployment', version: 'v1', fieldValidation: 'Strict', wrap: true }),
    (e: unknown) => e instanceof StatusError && e.code === 400 &&
      e.message === 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.bogus", unknown field "spec.template.spec.containers[0].imagePullPolisy"');
});

test('a type mismatch is a 400 at every level and hides unknown fields', () => {
  for (const level of ['Ignore', 'Warn', 'Strict'] as const) {
    const obj = withUnknown() as any;
    obj.spec.replicas = 'three';
    assert.throws(() => checkDecodedObject(obj, deploy, { kind: 'Deployment', version: 'v1', fieldValidation: level, wrap: true }),
      (e: unknown) => e instanceof StatusError && e.code === 400 &&
        e.message === 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32', level);
  }
});

test('type errors name the innermost Go struct and its field path', () => {
  assert.equal(firstDecodeError({ spec: { containers: [{ name: 'c', ports: [{ containerPort: 'x' }] }] } }, pod),
    'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32');
  assert.equal(firstDecodeError({ spec: { containers: 'nope' } }, pod),
    'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container');
  assert.equal(firstDecodeError({ metadata: { labels: { a: 1 } } }, pod),
    'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
  assert.equal(firstDecodeError({ spec: { containers: [{ name: 'c', image: 'i' }] } }, pod), undefined);
});

test('null is decoded as Go decodes it: struct fields unset, list items and map values their zero value', () => {
  for (const level of ['Strict', 'Warn', 'Ignore'] as const) {
    const obj: any = {
      apiVersion: 'v1', kind: 'Pod', metadata: null,
      spec: { containers: [null, { name: null, image: 'i', env: [null], ports: [null], resources: { limits: { cpu: null } } }], nodeSelector: { a: null }, tolerations: [null] },
    };
    checkDecodedObject(obj, pod, { kind: 'Pod', version: 'v1', fieldValidation: level });
    assert.deepEqual(obj, {
      apiVersion: 'v1', kind: 'Pod',
      spec: { containers: [{}, { image: 'i', env: [{}], ports: [{}], resources: { limits: { cpu: '0' } } }], nodeSelector: { a: '' }, tolerations: [{}] },
    }, level);
  }
});

test('Strict takes a PriorityClass description and descriptions throughout a CRD schema', () => {
  const pc = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000, description: 'for the important pods' };
  assert.deepEqual(checkDecodedObject(pc, 'io.k8s.api.scheduling.v1.PriorityClass', { kind: 'PriorityClass', version: 'v1', fieldValidation: 'Strict' }), []);
  assert.equal(pc.description, 'for the important pods');
  const schema = { type: 'object', description: 'a widget', properties: { spec: { type: 'object', description: 'what it should be', properties: { size: { type: 'integer', description: 'how big' } } } } };
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }] },
  };
  assert.deepEqual(checkDecodedObject(crd, 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition', { kind: 'CustomResourceDefinition', version: 'v1', fieldValidation: 'Strict' }), []);
  assert.equal(crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties.size.description, 'how big');
});
