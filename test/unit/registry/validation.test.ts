import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage, invalid } from '../../../src/api/status.ts';
import type { KubeObject } from '../../../src/api/object.ts';
import { validatePodSpec } from '../../../src/registry/validation/pod-spec.ts';
import { validateImmutableData, validatePodSpecUpdate } from '../../../src/registry/validation/immutable.ts';
import { validateWorkloadSpec, validateWorkloadUpdate } from '../../../src/registry/validation/workload.ts';
import { parseQuantity } from '../../../src/api/quantity.ts';
import { secretStrategy } from '../../../src/registry/core/secrets.ts';

const msgs = (errs: Parameters<typeof fieldErrorMessage>[0][]) => errs.map(fieldErrorMessage);

test('pod spec: containers required, names unique across init containers, image required, ports in range', () => {
  assert.deepEqual(msgs(validatePodSpec({}, 'spec')), ['spec.containers: Required value']);
  const errs = msgs(validatePodSpec({
    initContainers: [{ name: 'a', image: 'i' }],
    containers: [{ name: 'a', image: 'i' }, { name: 'Bad_Name', image: '' }, { name: 'p', image: 'i', ports: [{ containerPort: 70000 }, { containerPort: 80, protocol: 'ICMP' }] }],
    restartPolicy: 'Sometimes',
  }, 'spec'));
  assert.deepEqual(errs, [
    'spec.containers[1].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
    'spec.containers[1].image: Required value',
    'spec.containers[2].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    'spec.containers[2].ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    'spec.initContainers[0].name: Duplicate value: "a"',
    'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
  ]);
});

test('resource requests may not exceed limits; quantities compare by value', () => {
  assert.equal(parseQuantity('500m'), 0.5);
  assert.equal(parseQuantity('1Gi'), 2 ** 30);
  assert.equal(parseQuantity('1e3'), 1000);
  assert.equal(parseQuantity('2E'), 2e18);
  assert.deepEqual(msgs(validatePodSpec({ containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '2' }, limits: { cpu: '1500m' } } }] }, 'spec')),
    ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1500m']);
  assert.deepEqual(validatePodSpec({ containers: [{ name: 'c', image: 'i', resources: { requests: { memory: '1Gi' }, limits: { memory: '2Gi' } } }] }, 'spec'), []);
});

const pod = (spec: Record<string, unknown>): KubeObject => ({ metadata: { name: 'p' }, spec });

test('pod updates may change images, add tolerations, shorten activeDeadlineSeconds; nothing else', () => {
  const old = pod({ containers: [{ name: 'c', image: 'a' }], tolerations: [{ key: 'x', operator: 'Exists' }], activeDeadlineSeconds: 100 });
  assert.deepEqual(validatePodSpecUpdate(pod({ containers: [{ name: 'c', image: 'b' }], tolerations: [{ key: 'x', operator: 'Exists' }, { key: 'y', operator: 'Exists' }], activeDeadlineSeconds: 50 }), old), []);
  const changed = msgs(validatePodSpecUpdate(pod({ containers: [{ name: 'c', image: 'a', command: ['sh'] }], tolerations: [{ key: 'x', operator: 'Exists' }], activeDeadlineSeconds: 100 }), old));
  assert.equal(changed.length, 1);
  assert.match(changed[0]!, /^spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/);
  assert.equal(validatePodSpecUpdate(pod({ containers: [{ name: 'c', image: 'a' }], activeDeadlineSeconds: 100 }), old).length, 1, 'removing a toleration');
  assert.match(msgs(validatePodSpecUpdate(pod({ ...old.spec as object, activeDeadlineSeconds: 200 }), old))[0]!, /activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value/);
});

const deployment = (selector: unknown, labels: Record<string, string>): KubeObject => ({
  metadata: { name: 'd' },
  spec: { selector, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
});

test('workloads: the selector must select the template labels, may not be empty, and never changes', () => {
  assert.deepEqual(validateWorkloadSpec('deployments', deployment({ matchLabels: { app: 'a' } }, { app: 'a', x: 'y' })), []);
  assert.deepEqual(msgs(validateWorkloadSpec('deployments', deployment({ matchLabels: { app: 'a' } }, { app: 'b' }))),
    ['spec.template.metadata.labels: Invalid value: {"app":"b"}: `selector` does not match template `labels`']);
  assert.match(msgs(validateWorkloadSpec('deployments', deployment({}, { app: 'b' })))[0]!, /empty selector is invalid for deployment/);
  assert.deepEqual(msgs(validateWorkloadSpec('deployments', { metadata: { name: 'd' }, spec: {} })),
    ['spec.selector: Required value', 'spec.template: Required value']);
  const old = deployment({ matchLabels: { app: 'a' } }, { app: 'a', v: '2' });
  const moved = deployment({ matchLabels: { app: 'a', v: '2' } }, { app: 'a', v: '2' });
  assert.deepEqual(msgs(validateWorkloadUpdate('deployments', moved, old)), ['spec.selector: Invalid value: {"matchLabels":{"app":"a","v":"2"}}: field is immutable']);
});

test('immutable ConfigMaps and Secrets keep their data; stringData folds into data', () => {
  const old: KubeObject = { metadata: { name: 'c' }, immutable: true, data: { a: '1' } };
  assert.deepEqual(validateImmutableData({ ...old }, old), []);
  assert.deepEqual(msgs(validateImmutableData({ ...old, data: { a: '2' } }, old)), ['data: Forbidden: field is immutable when `immutable` is set']);
  assert.deepEqual(msgs(validateImmutableData({ ...old, immutable: false }, old)), ['immutable: Forbidden: field is immutable when `immutable` is set']);
  assert.deepEqual(validateImmutableData({ metadata: { name: 'c' }, data: { a: '2' } }, { metadata: { name: 'c' }, data: { a: '1' } }), []);
  const secret: KubeObject = { metadata: { name: 's' }, data: { a: 'eA==' }, stringData: { b: 'hi' } };
  secretStrategy.prepareForCreate(secret, {} as never);
  assert.deepEqual(secret.data, { a: 'eA==', b: 'aGk=' });
  assert.equal('stringData' in secret, false);
  assert.equal(secret.type, 'Opaque');
  const changedType = secretStrategy.validateUpdate({ ...secret, type: 'kubernetes.io/tls' }, secret, {} as never);
  assert.deepEqual(msgs(changedType), ['type: Invalid value: "kubernetes.io/tls": field is immutable']);
  assert.match(invalid('Secret', '', 's', changedType).message, /^Secret "s" is invalid: type: Invalid value/);
});

test('ConfigMap and Secret payloads are capped at 1 MiB, counted as Kubernetes counts them', async () => {
  const { validateConfigMapSize, validateSecretSize } = await import('../../../src/registry/validation/data-size.ts');
  const mib = 1024 * 1024;
  const cm = (data: Record<string, string>, binaryData: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data, binaryData }) as KubeObject;
  assert.deepEqual(validateConfigMapSize(cm({ a: 'x'.repeat(mib) })), []);
  assert.deepEqual(msgs(validateConfigMapSize(cm({ a: 'x'.repeat(mib - 1) }, { b: Buffer.from('yy').toString('base64') }))), ['[]: Too long: must have at most 1048576 bytes']);
  // text counts in UTF-8 bytes, not characters
  assert.deepEqual(msgs(validateConfigMapSize(cm({ a: 'é'.repeat(mib / 2 + 1) }))), ['[]: Too long: must have at most 1048576 bytes']);
  const secret = (bytes: number) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: Buffer.alloc(bytes).toString('base64') } }) as KubeObject;
  assert.deepEqual(validateSecretSize(secret(mib)), []);
  assert.deepEqual(msgs(validateSecretSize(secret(mib + 1))), ['data: Too long: must have at most 1048576 bytes']);
  // stringData is folded into data before the strategy validates
  const big = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { k: 'x'.repeat(mib + 1) } } as unknown as KubeObject;
  await secretStrategy.prepareForCreate(big, {} as never);
  assert.deepEqual(msgs(secretStrategy.validateCreate(big, {} as never)), ['data: Too long: must have at most 1048576 bytes']);
});
