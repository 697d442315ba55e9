import { test } from 'node:test';
import assert from 'node:assert/strict';
import { desiredEndpoints } from '../../../../src/controllers/endpoints/endpoints-object.ts';
import { endpointSubsets, truncateSubsets } from '../../../../src/controllers/endpoints/endpoints-subsets.ts';
import { pod, service } from './fixtures.ts';

test('subsets: ready and not-ready addresses sorted by IP, one subset per port set', () => {
  const svc = service('web', { ports: [{ name: 'http', port: 80, targetPort: 'web', protocol: 'TCP' }, { name: 'admin', port: 81, targetPort: 9000, protocol: 'TCP' }] });
  const subsets = endpointSubsets(svc, [
    pod('c', { ip: '10.0.0.3', ports: [{ name: 'web', containerPort: 8080 }] }),
    pod('a', { ip: '10.0.0.1', ready: false, ports: [{ name: 'web', containerPort: 8080 }] }),
    pod('b', { ip: '10.0.0.2', ports: [{ name: 'other', containerPort: 8080 }] }),
    pod('d', { ip: '10.0.0.4', deleting: true, ports: [{ name: 'web', containerPort: 8080 }] }),
  ]);
  assert.deepEqual(subsets, [
    { addresses: [{ ip: '10.0.0.2', nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'ns', name: 'b', uid: 'uid-b' } }], ports: [{ name: 'admin', port: 9000, protocol: 'TCP' }] },
    {
      addresses: [{ ip: '10.0.0.3', nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'ns', name: 'c', uid: 'uid-c' } }],
      notReadyAddresses: [{ ip: '10.0.0.1', nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'ns', name: 'a', uid: 'uid-a' } }],
      ports: [{ name: 'admin', port: 9000, protocol: 'TCP' }, { name: 'http', port: 8080, protocol: 'TCP' }],
    },
  ]);
});

test('publishNotReadyAddresses: unready and terminating pods are ready addresses', () => {
  const svc = service('web', { publishNotReadyAddresses: true });
  const subsets = endpointSubsets(svc, [pod('a', { ip: '10.0.0.1', ready: false }), pod('b', { ip: '10.0.0.2', deleting: true })]);
  assert.deepEqual(subsets.map(s => [s.addresses?.map(a => a.ip), s.notReadyAddresses]), [[['10.0.0.1', '10.0.0.2'], undefined]]);
});

test('headless services without ports publish addresses alone, with hostnames', () => {
  const svc = service('db', { clusterIP: 'None', ports: undefined });
  const subsets = endpointSubsets(svc, [pod('db-0', { ip: '10.0.0.1', hostname: 'db-0', subdomain: 'db' })]);
  assert.deepEqual(subsets, [{ addresses: [{ ip: '10.0.0.1', hostname: 'db-0', nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'ns', name: 'db-0', uid: 'uid-db-0' } }] }]);
});

test('the Endpoints object: service labels, headless label, trigger time; unchanged means no write', () => {
  const svc = service('db', { clusterIP: 'None' }, { app: 'db' });
  const pods = [pod('a', { ip: '10.0.0.1' })];
  const made = desiredEndpoints(svc, pods, undefined, '2026-01-01T00:00:10Z')!;
  assert.deepEqual(made.metadata, { name: 'db', namespace: 'ns', labels: { app: 'db', 'service.kubernetes.io/headless': '' }, annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': '2026-01-01T00:00:10Z' } });
  const stored = { ...made, metadata: { ...made.metadata, resourceVersion: '5' } };
  assert.equal(desiredEndpoints(svc, pods, stored, undefined), undefined);
  const next = desiredEndpoints(svc, [], stored, undefined)!;
  assert.equal(next.subsets, undefined);
  assert.equal(next.metadata.resourceVersion, '5');
  assert.equal(next.metadata.annotations!['endpoints.kubernetes.io/last-change-trigger-time'], undefined);
});

test('more than the capacity: not-ready addresses are cut first', () => {
  const subsets = [{ addresses: Array.from({ length: 8 }, (_, i) => ({ ip: `10.0.0.${i}` })), notReadyAddresses: Array.from({ length: 5 }, (_, i) => ({ ip: `10.0.1.${i}` })) }];
  assert.equal(truncateSubsets(subsets, 10), true);
  assert.equal(subsets[0]!.addresses.length, 8);
  assert.equal(subsets[0]!.notReadyAddresses!.length, 2);
  assert.equal(truncateSubsets(subsets, 10), false);
});
