// Defaults Kubernetes fills when it decodes: a LimitRange's Container item defaults, and a pod
// container's requests from its limits (not a template's).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testRegistry, type TestRegistry } from '../../support/registry.ts';

let reg: TestRegistry;
before(async () => { reg = await testRegistry(); });
after(() => reg.close());

test('a LimitRange Container item gets its default limit from max and default request from min', async () => {
  const lr = await reg.store.create(reg.info('', 'limitranges'), 'default', {
    metadata: { name: 'lr' }, spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } }, { type: 'Pod', max: { cpu: '4' } }] },
  } as never) as any;
  assert.deepEqual(lr.spec.limits[0], { type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { cpu: '2' }, defaultRequest: { cpu: '2', memory: '64Mi' } });
  assert.deepEqual(lr.spec.limits[1], { type: 'Pod', max: { cpu: '4' } });
});

test('a pod container stating only limits requests the same', async () => {
  const pod = await reg.store.create(reg.info('', 'pods'), 'default', {
    metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '500m' }, requests: { memory: '1Mi' } } }] },
  } as never) as any;
  assert.deepEqual(pod.spec.containers[0].resources, { limits: { cpu: '500m' }, requests: { memory: '1Mi', cpu: '500m' } });
  assert.equal(pod.status.qosClass, 'Burstable');
});

test('a LimitRange whose bounds contradict each other is refused in Kubernetes\' words', async () => {
  const create = (name: string, limits: unknown[]) => reg.store.create(reg.info('', 'limitranges'), 'default', { metadata: { name }, spec: { limits } } as never);
  const refusal = async (name: string, limits: unknown[]) => {
    try { await create(name, limits); } catch (err: any) { return err.status; }
    assert.fail('created');
  };
  const s = await refusal('bad', [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }]);
  assert.equal(s.code, 422);
  assert.equal(s.message, 'LimitRange "bad" is invalid: [spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1, spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1, spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1]');
  assert.equal((await refusal('r', [{ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }])).message,
    'LimitRange "r" is invalid: spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1');
  assert.equal((await refusal('pod', [{ type: 'Pod', default: { cpu: '1' } }, { type: 'Pod', max: { cpu: '1' } }])).message,
    'LimitRange "pod" is invalid: [spec.limits[0].default: Forbidden: may not be specified when `type` is \'Pod\', spec.limits[1].type: Duplicate value: "Pod"]');
  assert.equal((await refusal('pvc', [{ type: 'PersistentVolumeClaim', max: { cpu: '1' } }])).message,
    'LimitRange "pvc" is invalid: spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided');
  assert.equal((await refusal('gpu', [{ type: 'Container', default: { 'example.com/gpu': '2' }, defaultRequest: { 'example.com/gpu': '1' } }])).message,
    'LimitRange "gpu" is invalid: spec.limits[0].defaultRequest[example.com/gpu]: Invalid value: "1": default value 2 must equal to defaultRequest value 1 in example.com/gpu');
  assert.equal((await refusal('t', [{ type: 'Node', max: { cpu: '1' } }])).message,
    'LimitRange "t" is invalid: spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified');
  assert.equal((await refusal('ratio', [{ type: 'Container', min: { cpu: '100m' }, max: { cpu: '200m' }, maxLimitRequestRatio: { cpu: '3' } }])).message,
    'LimitRange "ratio" is invalid: spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000');
});
