import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endpointUrl, pickEndpoint, readyEndpoints } from '../../../../src/apiserver/aggregator/endpoint-pick.ts';

const ref = { namespace: 'wardle', name: 'api', port: 443 };
const service = { spec: { ports: [{ name: 'metrics', port: 80 }, { name: 'https', port: 443 }] } };

test('EndpointSlices decide when the Service has any: ready addresses on the port of the Service port\'s name', () => {
  const slices = [
    { addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: true } }, { addresses: ['10.0.0.2'], conditions: { ready: false } }, { addresses: ['10.0.0.3'], conditions: {} }], ports: [{ name: 'https', port: 6443 }, { name: 'metrics', port: 8080 }] },
    { addressType: 'FQDN', endpoints: [{ addresses: ['x.example.com'] }], ports: [{ name: 'https', port: 6443 }] },
  ];
  const endpoints = { subsets: [{ addresses: [{ ip: '10.9.9.9' }], ports: [{ name: 'https', port: 1 }] }] };
  assert.deepEqual(readyEndpoints(ref, service, endpoints, slices), [{ host: '10.0.0.1', port: 6443 }, { host: '10.0.0.3', port: 6443 }]);
});

test('Endpoints otherwise; a port the Service does not have routes nowhere', () => {
  const endpoints = { subsets: [{ addresses: [{ ip: 'fd00::1' }], notReadyAddresses: [{ ip: '10.0.0.5' }], ports: [{ name: 'https', port: 6443 }] }] };
  const ready = readyEndpoints(ref, service, endpoints, []);
  assert.deepEqual(ready, [{ host: 'fd00::1', port: 6443 }]);
  assert.equal(endpointUrl(ready[0]!, '/apis/g/v?watch=1'), 'https://[fd00::1]:6443/apis/g/v?watch=1');
  assert.deepEqual(readyEndpoints({ ...ref, port: 8443 }, service, endpoints, []), []);
});

test('one endpoint at random', () => {
  const c = [{ host: 'a', port: 1 }, { host: 'b', port: 1 }];
  assert.equal(pickEndpoint(c, () => 0)!.host, 'a');
  assert.equal(pickEndpoint(c, () => 0.99)!.host, 'b');
  assert.equal(pickEndpoint([]), undefined);
});
