// Volumes projecting files onto colliding paths (src/registry/warnings/volume-paths.ts), and a
// generic ephemeral volume's claim template, as kube-apiserver words their warnings.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { overlappingPathWarnings } from '../../../../src/registry/warnings/volume-paths.ts';
import { podWarnings, type PodParts } from '../../../../src/registry/warnings/pod-spec.ts';

test('configMap, secret and downwardAPI items on colliding paths', () => {
  assert.deepEqual(overlappingPathWarnings([
    { name: 'cm', configMap: { name: 'conf', items: [{ key: 'a', path: 'path' }, { key: 'b', path: 'path/path2' }, { key: 'c', path: 'other' }] } },
    { name: 's', secret: { secretName: 'sec', items: [{ key: 'a', path: 'x/' }, { key: 'b', path: 'x' }] } },
    { name: 'd', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }, { path: 'n/m', fieldRef: { fieldPath: 'metadata.name' } }] } },
    { name: 'fine', configMap: { name: 'conf', items: [{ key: 'a', path: 'one' }, { key: 'b', path: 'two' }] } },
  ]), [
    'volume "cm" (ConfigMap "conf"): overlapping paths: "path/path2" with "path"',
    'volume "s" (Secret "sec"): overlapping paths: "x" with "x"',
    'volume "d" (DownwardAPI): overlapping paths: "n/m" with "n"',
  ]);
});

test('projected sources: within one, across them, and an empty source', () => {
  assert.deepEqual(overlappingPathWarnings([{ name: 'p', projected: { sources: [
    { serviceAccountToken: { path: 'token' } },
    { configMap: { name: 'ca', items: [{ key: 'ca.crt', path: 'token' }] } },
    {},
  ] } }]), [
    'volume "p" (Projected ConfigMap "ca"): overlapping paths: "token" with "token"',
    'volume "p" (Projected) has no sources provided',
  ]);
  // the usual kube-api-access volume says nothing
  assert.deepEqual(overlappingPathWarnings([{ name: 'kube-api-access', projected: { sources: [
    { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
    { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
    { downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
  ] } }]), []);
});

test('a generic ephemeral volume: its claim template\'s fractional storage, under the volume\'s path', () => {
  const pod = { spec: { containers: [{ name: 'app' }], volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1.5' }, limits: { storage: '1Gi' } } } } } }] } } as unknown as PodParts;
  assert.deepEqual(podWarnings(pod, 'spec.template'), ['spec.template.spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer']);
});
