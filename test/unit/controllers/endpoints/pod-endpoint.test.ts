import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findPort, podAddress, podToSliceEndpoint, serviceAddressTypes, shouldPodBeInEndpoints } from '../../../../src/controllers/endpoints/pod-endpoint.ts';
import { publishesEndpoints } from '../../../../src/controllers/endpoints/service-pods.ts';
import { pod, service } from './fixtures.ts';

test('a pod is an endpoint with an IP, until terminal; terminating ones only when asked', () => {
  assert.equal(shouldPodBeInEndpoints(pod('a', { ip: '10.0.0.1' }), false), true);
  assert.equal(shouldPodBeInEndpoints(pod('a'), true), false, 'no IP yet');
  assert.equal(shouldPodBeInEndpoints(pod('a', { ip: '10.0.0.1', phase: 'Succeeded' }), true), false);
  assert.equal(shouldPodBeInEndpoints(pod('a', { ip: '10.0.0.1', phase: 'Failed' }), true), false);
  assert.equal(shouldPodBeInEndpoints(pod('a', { ip: '10.0.0.1', deleting: true }), false), false);
  assert.equal(shouldPodBeInEndpoints(pod('a', { ip: '10.0.0.1', deleting: true }), true), true);
});

test('a named target port resolves per pod through its containers, with the protocol', () => {
  const p = pod('a', { ports: [{ name: 'web', containerPort: 8081 }, { name: 'dns', containerPort: 5353, protocol: 'UDP' }] });
  assert.equal(findPort(p, { port: 80, targetPort: 'web', protocol: 'TCP' }), 8081);
  assert.equal(findPort(p, { port: 53, targetPort: 'dns', protocol: 'TCP' }), undefined, 'dns is a UDP port');
  assert.equal(findPort(p, { port: 53, targetPort: 'dns', protocol: 'UDP' }), 5353);
  assert.equal(findPort(p, { port: 80, targetPort: 9000 }), 9000);
  assert.equal(findPort(p, { port: 80 }), 80);
  assert.equal(findPort(p, { port: 80, targetPort: 'missing' }), undefined);
});

test('slice endpoint conditions: ready is never true while terminating, unless not-ready addresses are published', () => {
  const svc = service('web');
  assert.deepEqual(podToSliceEndpoint(pod('a', { ip: '10.0.0.1' }), svc, '10.0.0.1').conditions, { ready: true, serving: true, terminating: false });
  assert.deepEqual(podToSliceEndpoint(pod('a', { ip: '10.0.0.1', ready: false }), svc, '10.0.0.1').conditions, { ready: false, serving: false, terminating: false });
  assert.deepEqual(podToSliceEndpoint(pod('a', { ip: '10.0.0.1', deleting: true }), svc, '10.0.0.1').conditions, { ready: false, serving: true, terminating: true });
  const publish = service('web', { publishNotReadyAddresses: true });
  assert.deepEqual(podToSliceEndpoint(pod('a', { ip: '10.0.0.1', ready: false, deleting: true }), publish, '10.0.0.1').conditions, { ready: true, serving: false, terminating: true });
});

test('hostname only for pods whose subdomain is the service; nodeName, zone and targetRef always', () => {
  const svc = service('db', { clusterIP: 'None' });
  const ep = podToSliceEndpoint(pod('db-0', { ip: '10.0.0.1', hostname: 'db-0', subdomain: 'db' }), svc, '10.0.0.1', 'z1');
  assert.deepEqual(ep, { addresses: ['10.0.0.1'], conditions: { ready: true, serving: true, terminating: false }, targetRef: { kind: 'Pod', namespace: 'ns', name: 'db-0', uid: 'uid-db-0' }, hostname: 'db-0', nodeName: 'n1', zone: 'z1' });
  assert.equal(podToSliceEndpoint(pod('x', { ip: '10.0.0.2', hostname: 'x', subdomain: 'other' }), svc, '10.0.0.2').hostname, undefined);
});

test('address families: the service families, or its pods\' when it has none', () => {
  const dual = pod('a', { ip: '10.0.0.1' });
  dual.status!.podIPs = [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }];
  assert.equal(podAddress(dual, 'IPv6'), 'fd00::1');
  assert.equal(podAddress(dual, 'IPv4'), '10.0.0.1');
  assert.deepEqual(serviceAddressTypes(service('s', { ipFamilies: ['IPv6'] }), []), ['IPv6']);
  assert.deepEqual(serviceAddressTypes(service('s', { ipFamilies: undefined }), [dual]), ['IPv4', 'IPv6']);
  assert.deepEqual(serviceAddressTypes(service('s', { ipFamilies: undefined }), []), ['IPv4']);
});

test('endpoints are published for services with a selector, not ExternalName, not being deleted', () => {
  assert.equal(publishesEndpoints(service('s')), true);
  assert.equal(publishesEndpoints(service('s', { selector: undefined })), false);
  assert.equal(publishesEndpoints(service('s', { type: 'ExternalName' })), false);
  const deleting = service('s');
  deleting.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
  assert.equal(publishesEndpoints(deleting), false);
});
