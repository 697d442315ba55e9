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
