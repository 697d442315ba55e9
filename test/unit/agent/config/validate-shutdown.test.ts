import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shutdownConfigProblems } from '../../../../src/agent/config/validate-shutdown.ts';
import { loadAgentConfig } from '../../../../src/agent/config/load.ts';
import { featureGates } from '../../../../src/agent/features.ts';

const on = featureGates({});

test('shutdown fields: accepted combinations', () => {
  assert.deepEqual(shutdownConfigProblems({}, on), []);
  assert.deepEqual(shutdownConfigProblems({ shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '10s' }, on), []);
  assert.deepEqual(shutdownConfigProblems({ shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '30s' }, on), []);
  assert.deepEqual(shutdownConfigProblems({ shutdownGracePeriodByPodPriority: [{ priority: 0, shutdownGracePeriodSeconds: 20 }] }, on), []);
});

test('shutdown fields: the kubelet\'s messages for bad combinations', () => {
  assert.deepEqual(shutdownConfigProblems({ shutdownGracePeriod: '10s', shutdownGracePeriodCriticalPods: '1m' }, on),
    ['shutdownGracePeriodCriticalPods 1m0s must be <= shutdownGracePeriod 10s']);
  assert.deepEqual(shutdownConfigProblems({ shutdownGracePeriod: '500ms' }, on), ['shutdownGracePeriod 500ms must be either zero or otherwise >= 1 sec']);
  assert.deepEqual(shutdownConfigProblems({ shutdownGracePeriod: '2s', shutdownGracePeriodCriticalPods: '100ms' }, on), ['shutdownGracePeriodCriticalPods 100ms must be either zero or otherwise >= 1 sec']);
  assert.deepEqual(shutdownConfigProblems({ shutdownGracePeriod: '30s', shutdownGracePeriodByPodPriority: [{ priority: 0, shutdownGracePeriodSeconds: 20 }] }, on),
    ['Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time']);
  assert.deepEqual(shutdownConfigProblems({ shutdownGracePeriod: '30s' }, featureGates({ GracefulNodeShutdown: false })),
    ['specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown']);
  assert.deepEqual(shutdownConfigProblems({ shutdownGracePeriodByPodPriority: [{ priority: 0, shutdownGracePeriodSeconds: 20 }] }, featureGates({ GracefulNodeShutdownBasedOnPodPriority: false })),
    ['Specifying shutdownGracePeriodByPodPriority requires feature gate GracefulNodeShutdownBasedOnPodPriority']);
  assert.deepEqual(shutdownConfigProblems({ shutdownGracePeriodByPodPriority: [{ priority: 'high', shutdownGracePeriodSeconds: 20 }, { priority: 1, seconds: 3 }] }, on), [
    'shutdownGracePeriodByPodPriority[0]: priority and shutdownGracePeriodSeconds must be whole numbers',
    'shutdownGracePeriodByPodPriority[1]: only priority and shutdownGracePeriodSeconds may be given',
  ]);
});

test('shutdown fields: a configuration file with them refused at load, in the kubelet\'s words', async t => {
  const d = await mkdtemp(join(tmpdir(), 'node-shutdown-config-'));
  t.after(() => rm(d, { recursive: true, force: true }));
  await writeFile(join(d, 'main.yaml'), 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nshutdownGracePeriod: 10s\nshutdownGracePeriodCriticalPods: 20s\n');
  await assert.rejects(loadAgentConfig({ configFile: join(d, 'main.yaml') }), { message: 'invalid configuration: shutdownGracePeriodCriticalPods 20s must be <= shutdownGracePeriod 10s' });
  await writeFile(join(d, 'main.yaml'), 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nshutdownGracePeriodByPodPriority:\n- priority: 0\n  shutdownGracePeriodSeconds: 30\n');
  const c = await loadAgentConfig({ configFile: join(d, 'main.yaml') });
  assert.deepEqual(c.shutdownGracePeriodByPodPriority, [{ priority: 0, shutdownGracePeriodSeconds: 30 }]);
});
