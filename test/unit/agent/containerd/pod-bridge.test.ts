import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podGateway } from '../../../../src/agent/containerd/pod-bridge.ts';

test('the gateway is the first host address of the pod subnet', () => {
  assert.deepEqual(podGateway('10.42.0.0/16'), { address: '10.42.0.1', prefix: 16 });
  assert.deepEqual(podGateway('10.42.3.7/24'), { address: '10.42.3.1', prefix: 24 });
  assert.deepEqual(podGateway('192.168.255.252/30'), { address: '192.168.255.253', prefix: 30 });
});

test('subnets that are not IPv4 CIDRs or leave no room are refused', () => {
  assert.throws(() => podGateway('fd00::/64'), /is not an IPv4 CIDR/);
  assert.throws(() => podGateway('10.0.0.0/31'), /too small/);
});
