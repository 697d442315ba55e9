// LimitRange defaults and LimitRanger's checks, in Kubernetes' words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPodDefaults, defaultLimitRangeItem, type LimitRange } from '../../../../src/api/limit-range/defaults.ts';
import { validateClaim, validatePod } from '../../../../src/api/limit-range/checks.ts';

const range = (...limits: any[]): LimitRange => ({ metadata: { name: 'lr' }, spec: { limits } });

test('a Container item defaults its limit from max and its request from the limit, else from min', () => {
  const item: any = { type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { memory: '256Mi' } };
  defaultLimitRangeItem(item);
  assert.deepEqual(item.default, { memory: '256Mi', cpu: '2' });
  assert.deepEqual(item.defaultRequest, { memory: '256Mi', cpu: '2' });
  const min: any = { type: 'Container', min: { cpu: '100m' } };
  defaultLimitRangeItem(min);
  assert.deepEqual(min.defaultRequest, { cpu: '100m' });
  const pod: any = { type: 'Pod', max: { cpu: '2' } };
  defaultLimitRangeItem(pod);
  assert.equal(pod.default, undefined, 'only Container items have defaults');
});

test('containers get the defaults they lack, and the annotation says which', () => {
  const lr = range({ type: 'Container', default: { cpu: '500m', memory: '512Mi' }, defaultRequest: { cpu: '100m', memory: '256Mi' } });
  const pod: any = { metadata: {}, spec: {
    containers: [{ name: 'app', resources: { limits: { cpu: '1' }, requests: { cpu: '1' } } }, { name: 'side' }],
    initContainers: [{ name: 'init', resources: {} }],
  } };
  applyPodDefaults(lr, pod);
  assert.deepEqual(pod.spec.containers[0].resources, { limits: { cpu: '1', memory: '512Mi' }, requests: { cpu: '1', memory: '256Mi' } });
  assert.deepEqual(pod.spec.containers[1].resources, { limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '100m', memory: '256Mi' } });
  assert.equal(pod.metadata.annotations['kubernetes.io/limit-ranger'],
    'LimitRanger plugin set: memory request for container app; memory limit for container app; cpu, memory request for container side; cpu, memory limit for container side; cpu, memory request for init container init; cpu, memory limit for init container init');
  const untouched: any = { metadata: {}, spec: { containers: [{ name: 'x', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } } }] } };
  applyPodDefaults(lr, untouched);
  assert.equal(untouched.metadata.annotations, undefined);
});

test('Container min, max and ratio checks', () => {
  const c = (requests?: any, limits?: any) => ({ spec: { containers: [{ name: 'c', resources: { requests, limits } }] } });
  const lr = range({ type: 'Container', max: { cpu: '1' } });
  assert.equal(validatePod(lr, c({ cpu: '500m' }, { cpu: '2' })), 'maximum cpu usage per Container is 1, but limit is 2');
  assert.equal(validatePod(lr, c({ cpu: '500m' })), 'maximum cpu usage per Container is 1.  No limit is specified');
  assert.equal(validatePod(lr, c({ cpu: '1' }, { cpu: '1000m' })), undefined);
  const min = range({ type: 'Container', min: { memory: '64Mi' } });
  assert.equal(validatePod(min, c({ memory: '32Mi' })), 'minimum memory usage per Container is 64Mi, but request is 32Mi');
  assert.equal(validatePod(min, c()), 'minimum memory usage per Container is 64Mi.  No request is specified');
  const ratio = range({ type: 'Container', maxLimitRequestRatio: { cpu: '2' } });
  assert.equal(validatePod(ratio, c({ cpu: '100m' }, { cpu: '300m' })), 'cpu max limit to request ratio per Container is 2, but provided ratio is 3.000000');
  assert.equal(validatePod(ratio, c({}, { cpu: '300m' })), 'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0');
  const both = range({ type: 'Container', max: { cpu: '1', memory: '1Gi' } });
  assert.equal(validatePod(both, c({}, { cpu: '2', memory: '2Gi' })), '[maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi]');
});

test('Pod items check the pod\'s sum; claim items check the storage request', () => {
  const pod = { spec: { containers: [1, 2].map(i => ({ name: `c${i}`, resources: { requests: { cpu: '600m' }, limits: { cpu: '600m' } } })) } };
  assert.equal(validatePod(range({ type: 'Pod', max: { cpu: '1' } }), pod), 'maximum cpu usage per Pod is 1, but limit is 1200m');
  const lr = range({ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } });
  assert.equal(validateClaim(lr, { spec: { resources: { requests: { storage: '20Gi' } } } }), 'maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
  assert.equal(validateClaim(lr, { spec: { resources: { requests: { storage: '500Mi' } } } }), 'minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi');
  assert.equal(validateClaim(lr, { spec: { resources: { requests: { storage: '5Gi' } } } }), undefined);
});
