import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  groupByPriority, periodRequestedSeconds, podShutdownGracePeriod, shutdownFailure, shutdownPeriods,
} from '../../../../src/agent/shutdown/plan.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';

const pod = (name: string, priority?: number, terminationGracePeriodSeconds?: number): Pod =>
  ({ metadata: { name, namespace: 'default', uid: name }, spec: { containers: [], priority, terminationGracePeriodSeconds } }) as Pod;

test('shutdownPeriods: shutdownGracePeriod split into regular pods and critical pods (from system-critical priority up)', () => {
  assert.deepEqual(shutdownPeriods({ shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '10s' }), [
    { priority: 0, shutdownGracePeriodSeconds: 20 },
    { priority: 2_000_000_000, shutdownGracePeriodSeconds: 10 },
  ]);
  assert.deepEqual(shutdownPeriods({ shutdownGracePeriod: '1m0s' }), [
    { priority: 0, shutdownGracePeriodSeconds: 60 },
    { priority: 2_000_000_000, shutdownGracePeriodSeconds: 0 },
  ]);
  // none configured, or a critical share larger than the whole: no graceful shutdown
  assert.deepEqual(shutdownPeriods({}), []);
  assert.deepEqual(shutdownPeriods({ shutdownGracePeriod: '0s', shutdownGracePeriodCriticalPods: '0s' }), []);
  assert.deepEqual(shutdownPeriods({ shutdownGracePeriod: '5s', shutdownGracePeriodCriticalPods: '10s' }), []);
});

test('shutdownPeriods: shutdownGracePeriodByPodPriority sorted lowest first; ignored with its gate off', () => {
  const byPriority = [
    { priority: 100000, shutdownGracePeriodSeconds: 300 },
    { priority: 0, shutdownGracePeriodSeconds: 60 },
    { priority: 2000000000, shutdownGracePeriodSeconds: 10 },
    { priority: 10000, shutdownGracePeriodSeconds: 180 },
  ];
  assert.deepEqual(shutdownPeriods({ shutdownGracePeriodByPodPriority: byPriority }).map(p => p.priority), [0, 10000, 100000, 2000000000]);
  assert.equal(periodRequestedSeconds(shutdownPeriods({ shutdownGracePeriodByPodPriority: byPriority })), 550);
  assert.deepEqual(shutdownPeriods({ shutdownGracePeriodByPodPriority: byPriority, shutdownGracePeriod: '20s' }, false), [
    { priority: 0, shutdownGracePeriodSeconds: 20 },
    { priority: 2_000_000_000, shutdownGracePeriodSeconds: 0 },
  ]);
  assert.deepEqual(shutdownPeriods({ shutdownGracePeriodByPodPriority: byPriority }, false), []);
});

test('groupByPriority: the highest range at or below a pod\'s priority; below the lowest with the lowest, above the highest with the highest', () => {
  const periods = shutdownPeriods({ shutdownGracePeriodByPodPriority: [
    { priority: 1, shutdownGracePeriodSeconds: 10 }, { priority: 1000, shutdownGracePeriodSeconds: 20 }, { priority: 2000, shutdownGracePeriodSeconds: 30 },
  ] });
  const pods = [pod('none'), pod('p0', 0), pod('p1', 1), pod('p999', 999), pod('p1000', 1000), pod('p1500', 1500), pod('p2000', 2000), pod('p9999', 9999)];
  const groups = groupByPriority(periods, pods);
  assert.deepEqual(groups.map(g => [g.priority, g.shutdownGracePeriodSeconds, g.pods.map(p => p.metadata.name)]), [
    [1, 10, ['none', 'p0', 'p1', 'p999']],
    [1000, 20, ['p1000', 'p1500']],
    [2000, 30, ['p2000', 'p9999']],
  ]);
  // the two default ranges: critical from 2000000000 (system-cluster-critical) up, system-node-critical included
  const split = groupByPriority(shutdownPeriods({ shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '10s' }), [pod('app', 100), pod('cluster', 2_000_000_000), pod('node', 2_000_001_000), pod('negative', -5)]);
  assert.deepEqual(split.map(g => g.pods.map(p => p.metadata.name)), [['app', 'negative'], ['cluster', 'node']]);
  assert.deepEqual(groupByPriority([], pods), []);
});

test('podShutdownGracePeriod: the range\'s period, or the pod\'s own when that is not longer', () => {
  const range = { priority: 0, shutdownGracePeriodSeconds: 20 };
  assert.equal(podShutdownGracePeriod(pod('a', 0, 30), range), 20);
  assert.equal(podShutdownGracePeriod(pod('b', 0, 5), range), 5);
  assert.equal(podShutdownGracePeriod(pod('c', 0, 20), range), 20);
  assert.equal(podShutdownGracePeriod(pod('d', 0, 0), range), 0);
  assert.equal(podShutdownGracePeriod(pod('e', 0), range), 20);
});

test('shutdownFailure: Failed as Kubernetes words it, with the DisruptionTarget condition', () => {
  assert.deepEqual(shutdownFailure(Date.parse('2026-11-27T17:00:00.250Z')), {
    reason: 'Terminated',
    message: 'Pod was terminated in response to imminent node shutdown.',
    condition: {
      type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message: 'Pod was terminated in response to imminent node shutdown.',
      lastProbeTime: null, lastTransitionTime: '2026-11-27T17:00:00Z',
    },
  });
});
