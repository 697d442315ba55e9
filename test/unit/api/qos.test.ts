// One QoS rule for the API server (status.qosClass at creation) and the agent (cgroups, swap).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeQosClass, podQosClass } from '../../../src/api/qos.ts';

const c = (requests?: Record<string, string>, limits?: Record<string, string>) => ({ resources: { requests, limits } });

test('quantities compare by value, init containers count, only cpu and memory decide', () => {
  assert.equal(computeQosClass({ spec: { containers: [c({ cpu: '1', memory: '1Gi' }, { cpu: '1000m', memory: '1024Mi' })] } }), 'Guaranteed');
  assert.equal(computeQosClass({ spec: { containers: [c(undefined, { cpu: '1', memory: '1Gi' })] } }), 'Guaranteed', 'requests default to limits');
  assert.equal(computeQosClass({ spec: { containers: [c(undefined, { cpu: '1', memory: '1Gi' })], initContainers: [c({ cpu: '100m' })] } }), 'Burstable');
  assert.equal(computeQosClass({ spec: { containers: [c({ 'ephemeral-storage': '1Gi' })] } }), 'BestEffort');
  assert.equal(computeQosClass({ spec: { containers: [c({ cpu: '0' })] } }), 'BestEffort', 'a zero request is no request');
  assert.equal(computeQosClass({ spec: { containers: [c({ memory: '1Gi' })] } }), 'Burstable');
  assert.equal(computeQosClass({ spec: { containers: [] } }), 'BestEffort');
});

test('a zero request under a positive limit is Burstable, as Kubernetes counts limits too (the agent\'s copy said BestEffort)', () => {
  assert.equal(computeQosClass({ spec: { containers: [c({ memory: '0' }, { memory: '1Gi' })] } }), 'Burstable');
  assert.equal(computeQosClass({ spec: { containers: [c({ cpu: '0' }, { cpu: '0' })] } }), 'BestEffort');
});

test('requests equal limits exactly, whatever the notation (no floating-point drift)', () => {
  assert.equal(computeQosClass({ spec: { containers: [c({ cpu: '0.009', memory: '1.5Gi' }, { cpu: '9m', memory: '1536Mi' })] } }), 'Guaranteed');
  assert.equal(computeQosClass({ spec: { containers: [c({ cpu: '71m', memory: '1e3' }, { cpu: '0.071', memory: '1k' })] } }), 'Guaranteed');
  assert.equal(computeQosClass({ spec: { containers: [c({ cpu: '999m', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })] } }), 'Burstable');
});

test('the class recorded in status wins over the spec', () => {
  assert.equal(podQosClass({ spec: { containers: [c({ memory: '1Gi' })] }, status: { qosClass: 'BestEffort' } }), 'BestEffort');
  assert.equal(podQosClass({ spec: { containers: [c({ memory: '1Gi' })] } }), 'Burstable');
});
