import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mirroredAnnotations, mirroredGroups, mirroredLabels, shouldMirror } from '../../../../src/controllers/endpoints/mirroring.ts';
import type { EndpointsObject } from '../../../../src/controllers/endpoints/endpoints-object.ts';
import { service } from './fixtures.ts';

const endpoints = (extra: Partial<EndpointsObject> = {}): EndpointsObject => ({
  metadata: { name: 'ext', namespace: 'ns', uid: 'uid-ep', labels: { team: 'a' }, annotations: { note: 'x', 'endpoints.kubernetes.io/last-change-trigger-time': '2026-01-01T00:00:00Z' } },
  subsets: [
    { addresses: [{ ip: '192.0.2.1', hostname: 'one' }, { ip: 'fd00::1' }], notReadyAddresses: [{ ip: '192.0.2.2', nodeName: 'n1' }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
    { addresses: [{ ip: '192.0.2.9' }, { ip: 'not-an-ip' }], ports: [{ name: 'admin', port: 9000 }] },
  ],
  ...extra,
});

test('only Endpoints of services without a selector are mirrored, not the API server\'s own', () => {
  const selectorless = service('ext', { selector: undefined });
  assert.equal(shouldMirror(selectorless, endpoints()), true);
  assert.equal(shouldMirror(service('ext'), endpoints()), false, 'a selector service has its own slices');
  assert.equal(shouldMirror(undefined, endpoints()), false);
  assert.equal(shouldMirror(selectorless, endpoints({ metadata: { name: 'ext', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } } })), false);
});

test('addresses become endpoints by address type and port set; labels and annotations carried over', () => {
  const groups = [...mirroredGroups(endpoints()).values()].map(g => [g.type, g.ports.map(p => p.port), [...g.endpoints.values()]]);
  assert.deepEqual(groups, [
    ['IPv4', [80], [{ addresses: ['192.0.2.1'], conditions: { ready: true }, hostname: 'one' }, { addresses: ['192.0.2.2'], conditions: { ready: false }, nodeName: 'n1' }]],
    ['IPv6', [80], [{ addresses: ['fd00::1'], conditions: { ready: true } }]],
    ['IPv4', [9000], [{ addresses: ['192.0.2.9'], conditions: { ready: true } }]],
  ]);
  assert.deepEqual(mirroredLabels(endpoints()), { team: 'a', 'kubernetes.io/service-name': 'ext', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io' });
  assert.deepEqual(mirroredAnnotations(endpoints()), { note: 'x' });
});
