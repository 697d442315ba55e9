import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterCondition, discoveryFailure, isAvailable, localCondition, passedCondition, serviceRef, withCondition } from '../../../../src/apiserver/aggregator/availability.ts';

const ref = { namespace: 'wardle', name: 'api', port: 443 };
const svc = (ports: Array<{ name?: string; port: number }>, type?: string) => ({ metadata: { name: 'api' }, spec: { type, ports } });
const eps = (subsets: unknown[]) => ({ metadata: { name: 'api' }, subsets }) as never;

test('a local APIService names no service; a remote one defaults its port to 443', () => {
  assert.equal(serviceRef({ group: 'apps', version: 'v1' }), undefined);
  assert.deepEqual(serviceRef({ service: { namespace: 'ns', name: 'x' } }), { namespace: 'ns', name: 'x', port: 443 });
  assert.deepEqual(localCondition(), { type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available' });
  assert.deepEqual(passedCondition(), { type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' });
});

test('service, port and endpoints are checked in kube-aggregator\'s order and words', () => {
  assert.deepEqual(clusterCondition(ref, undefined, undefined), { type: 'Available', status: 'False', reason: 'ServiceNotFound', message: 'service/api in "wardle" is not present' });
  assert.equal(clusterCondition(ref, svc([{ port: 8443 }]), undefined)!.message, 'service/api in "wardle" is not listening on port 443');
  assert.equal(clusterCondition(ref, svc([{ port: 8443 }]), undefined)!.reason, 'ServicePortError');
  assert.deepEqual(clusterCondition(ref, svc([{ name: 'https', port: 443 }]), undefined), { type: 'Available', status: 'False', reason: 'EndpointsNotFound', message: 'cannot find endpoints for service/api in "wardle"' });
  const missing = clusterCondition(ref, svc([{ name: 'https', port: 443 }]), eps([{ addresses: [], ports: [{ name: 'https', port: 1 }] }, { addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'other', port: 1 }] }]));
  assert.deepEqual(missing, { type: 'Available', status: 'False', reason: 'MissingEndpoints', message: 'endpoints for service/api in "wardle" have no addresses with port name "https"' });
  assert.equal(clusterCondition(ref, svc([{ name: 'https', port: 443 }]), eps([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'https', port: 1 }] }])), undefined);
  // an unnamed port matches an unnamed endpoint port
  assert.equal(clusterCondition(ref, svc([{ port: 443 }]), eps([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 1 }] }])), undefined);
  // only ClusterIP Services are checked before the discovery call
  assert.equal(clusterCondition(ref, svc([], 'ExternalName'), undefined), undefined);
});

test('the discovery check\'s failures', () => {
  const url = 'https://127.0.0.1:9443/apis/wardle.example.com/v1alpha1';
  assert.deepEqual(discoveryFailure(url, { status: 401 }), { type: 'Available', status: 'False', reason: 'FailedDiscoveryCheck', message: `failing or missing response from ${url}: bad status from ${url}: 401` });
  assert.equal(discoveryFailure(url, { error: `Get "${url}": dial tcp 127.0.0.1:9443: connect: connection refused` }).message,
    `failing or missing response from ${url}: Get "${url}": dial tcp 127.0.0.1:9443: connect: connection refused`);
});

test('the condition is written only on change, its transition time moving only with its status', () => {
  const first = withCondition(undefined, passedCondition(), '2026-01-01T00:00:00Z')!;
  assert.deepEqual(first.conditions, [{ type: 'Available', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Passed', message: 'all checks passed' }]);
  assert.equal(withCondition(first, passedCondition(), '2026-01-02T00:00:00Z'), undefined);
  const local = withCondition(first, localCondition(), '2026-01-02T00:00:00Z')!;
  assert.equal(local.conditions[0]!.lastTransitionTime, '2026-01-01T00:00:00Z');
  const down = withCondition(local, discoveryFailure('u', { status: 500 }), '2026-01-03T00:00:00Z')!;
  assert.equal(down.conditions[0]!.lastTransitionTime, '2026-01-03T00:00:00Z');
  assert.equal(isAvailable({ status: down }), false);
  assert.equal(isAvailable({ status: local }), true);
});
