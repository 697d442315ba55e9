// The eviction manager's decisions as pure functions: thresholds from the configuration,
// signals observed from a Summary, thresholds met with grace periods, minimum reclaim and the
// pressure transition period, pods ranked and messages worded as the kubelet ranks and words
// them, local storage limits, and admission under pressure.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseThresholds } from '../../../../src/agent/eviction/thresholds.ts';
import { observe } from '../../../../src/agent/eviction/signals.ts';
import { decide, emptyState, evictionGracePeriod } from '../../../../src/agent/eviction/decide.ts';
import { evictionMessage, rankPods } from '../../../../src/agent/eviction/rank.ts';
import { localStorageViolations } from '../../../../src/agent/eviction/local-storage.ts';
import { pressureAdmission } from '../../../../src/agent/eviction/admission.ts';
import type { Summary, PodStatsJson } from '../../../../src/agent/stats/summary-types.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';

const Mi = 2 ** 20, Gi = 2 ** 30;
const T = '2026-11-22T10:00:00Z';

function summary(over: { memAvail?: number; fsAvail?: number; inodesFree?: number; imgAvail?: number; procs?: number } = {}): Summary {
  return {
    node: {
      nodeName: 'n', startTime: T,
      memory: { time: T, availableBytes: over.memAvail ?? 4 * Gi, workingSetBytes: 12 * Gi },
      fs: { time: T, capacityBytes: 100 * Gi, availableBytes: over.fsAvail ?? 50 * Gi, inodes: 1000, inodesFree: over.inodesFree ?? 900 },
      runtime: { imageFs: { time: T, capacityBytes: 200 * Gi, availableBytes: over.imgAvail ?? 100 * Gi, inodes: 2000, inodesFree: 1500 } },
      rlimit: { time: T, maxpid: 1000, curproc: over.procs ?? 100 },
    },
    pods: [],
  };
}

test('thresholds: hard, soft with grace periods, minimum reclaim; 0% turns one off; mistakes in the kubelet\'s words', () => {
  const t = parseThresholds({
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '10%', 'imagefs.available': '0%' },
    evictionSoft: { 'memory.available': '1Gi' },
    evictionSoftGracePeriod: { 'memory.available': '1m30s' },
    evictionMinimumReclaim: { 'memory.available': '500Mi' },
  });
  assert.deepEqual(t, [
    { signal: 'memory.available', value: { quantity: 100 * Mi }, gracePeriodMs: 0, minReclaim: { quantity: 500 * Mi } },
    { signal: 'nodefs.available', value: { percentage: 0.1 }, gracePeriodMs: 0 },
    { signal: 'memory.available', value: { quantity: Gi }, gracePeriodMs: 90_000, minReclaim: { quantity: 500 * Mi } },
  ]);
  assert.throws(() => parseThresholds({ evictionHard: { 'memory.free': '1Mi' } }), /^Error: unsupported eviction signal memory.free$/);
  assert.throws(() => parseThresholds({ evictionSoft: { 'nodefs.available': '10%' } }), /^Error: grace period must be specified for the soft eviction threshold nodefs.available$/);
  assert.throws(() => parseThresholds({ evictionHard: { 'nodefs.available': '120%' } }), /must be <= 100%/);
  assert.throws(() => parseThresholds({ evictionHard: { 'memory.available': '-1Mi' } }), /must be positive/);
});

test('signals observed from the Summary: available and capacity of each', () => {
  const o = observe(summary({ procs: 250 }));
  assert.deepEqual(o['memory.available'], { available: 4 * Gi, capacity: 16 * Gi });
  assert.deepEqual(o['nodefs.available'], { available: 50 * Gi, capacity: 100 * Gi });
  assert.deepEqual(o['nodefs.inodesFree'], { available: 900, capacity: 1000 });
  assert.deepEqual(o['imagefs.available'], { available: 100 * Gi, capacity: 200 * Gi });
  assert.deepEqual(o['pid.available'], { available: 750, capacity: 1000 });
});

test('hard thresholds act at once and set their condition; each signal its own condition', () => {
  const t = parseThresholds({ evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%', 'pid.available': '10%', 'imagefs.available': '15%' } });
  const run = (s: Summary) => decide(t, emptyState(), observe(s), 0, 300_000);
  assert.deepEqual([...run(summary()).conditions], []);
  assert.deepEqual(run(summary()).act, []);
  const mem = run(summary({ memAvail: 50 * Mi }));
  assert.deepEqual([...mem.conditions], ['MemoryPressure']);
  assert.equal(mem.act[0]!.signal, 'memory.available');
  assert.deepEqual([...run(summary({ fsAvail: 5 * Gi })).conditions], ['DiskPressure']);
  assert.deepEqual([...run(summary({ inodesFree: 10 })).conditions], ['DiskPressure']);
  assert.deepEqual([...run(summary({ imgAvail: 10 * Gi })).conditions], ['DiskPressure']);
  assert.deepEqual([...run(summary({ procs: 950 })).conditions], ['PIDPressure']);
  // memory is reclaimed first whatever the order of the configuration
  const both = run(summary({ memAvail: 50 * Mi, fsAvail: Gi }));
  assert.deepEqual(both.act.map(x => x.signal), ['memory.available', 'nodefs.available']);
  assert.equal(evictionGracePeriod(both.act[0]!, 30), 1);
});

test('a soft threshold acts after its grace period; minimum reclaim holds it until reclaimed; conditions stay for the transition period', () => {
  const t = parseThresholds({ evictionSoft: { 'memory.available': '1Gi' }, evictionSoftGracePeriod: { 'memory.available': '1m' }, evictionMinimumReclaim: { 'memory.available': '512Mi' } });
  let d = decide(t, emptyState(), observe(summary({ memAvail: 800 * Mi })), 0, 60_000);
  assert.deepEqual([...d.conditions], ['MemoryPressure'], 'the condition at once');
  assert.deepEqual(d.act, [], 'no eviction before the grace period');
  d = decide(t, d.state, observe(summary({ memAvail: 800 * Mi })), 30_000, 60_000);
  assert.deepEqual(d.act, []);
  d = decide(t, d.state, observe(summary({ memAvail: 800 * Mi })), 60_000, 60_000);
  assert.equal(d.act.length, 1, 'held for a minute');
  assert.equal(evictionGracePeriod(d.act[0]!, 30), 30, 'soft: evictionMaxPodGracePeriod');
  // above the threshold but not by the minimum reclaim: still met
  d = decide(t, d.state, observe(summary({ memAvail: 1.2 * Gi })), 70_000, 60_000);
  assert.equal(d.act.length, 1);
  // reclaimed: no longer met, but the condition stays for the transition period
  d = decide(t, d.state, observe(summary({ memAvail: 2 * Gi })), 80_000, 60_000);
  assert.deepEqual(d.act, []);
  assert.deepEqual([...d.conditions], ['MemoryPressure']);
  d = decide(t, d.state, observe(summary({ memAvail: 2 * Gi })), 140_001, 60_000);
  assert.deepEqual([...d.conditions], []);
  // a threshold met anew starts its grace period again
  d = decide(t, d.state, observe(summary({ memAvail: 800 * Mi })), 150_000, 60_000);
  assert.deepEqual(d.act, []);
});

function pod(name: string, opts: { priority?: number; memReq?: string; diskReq?: string; annotations?: Record<string, string>; limits?: Record<string, string>; volumes?: unknown[]; tolerations?: unknown[] } = {}): Pod {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}`, ...(opts.annotations ? { annotations: opts.annotations } : {}) },
    spec: {
      ...(opts.priority !== undefined ? { priority: opts.priority } : {}),
      containers: [{ name: 'main', image: 'i', resources: { requests: { ...(opts.memReq ? { memory: opts.memReq } : {}), ...(opts.diskReq ? { 'ephemeral-storage': opts.diskReq } : {}) }, ...(opts.limits ? { limits: opts.limits } : {}) } }],
      ...(opts.volumes ? { volumes: opts.volumes } : {}),
      ...(opts.tolerations ? { tolerations: opts.tolerations } : {}),
    },
  } as Pod;
}

function podStats(name: string, mem: number, disk = 0, volumes: Array<[string, number]> = []): PodStatsJson {
  return {
    podRef: { name, namespace: 'default', uid: `uid-${name}` }, startTime: T,
    containers: [{ name: 'main', startTime: T, memory: { time: T, workingSetBytes: mem }, rootfs: { time: T, usedBytes: disk / 2 }, logs: { time: T, usedBytes: disk / 2 } }],
    memory: { time: T, workingSetBytes: mem },
    'ephemeral-storage': { time: T, usedBytes: disk + volumes.reduce((n, [, b]) => n + b, 0) },
    volume: volumes.map(([n, b]) => ({ name: n, time: T, usedBytes: b })),
  };
}

test('memory ranking: over their requests first, then lower priority, then most above request; pods without figures first', () => {
  const pods = [
    pod('guaranteed-small', { memReq: '1Gi' }),          // under its request
    pod('best-effort', {}),                                // over (no request)
    pod('burstable-high', { memReq: '100Mi', priority: 1000 }), // over, high priority
    pod('burstable-big', { memReq: '100Mi' }),           // over by the most
    pod('no-stats', { memReq: '1Gi' }),
  ];
  const s = new Map([
    ['guaranteed-small', podStats('guaranteed-small', 900 * Mi)],
    ['best-effort', podStats('best-effort', 200 * Mi)],
    ['burstable-high', podStats('burstable-high', 2 * Gi)],
    ['burstable-big', podStats('burstable-big', 1 * Gi)],
  ]);
  const ranked = rankPods(pods, 'memory.available', p => s.get(p.metadata.name));
  assert.deepEqual(ranked.map(p => p.metadata.name), ['no-stats', 'burstable-big', 'best-effort', 'burstable-high', 'guaranteed-small']);
});

test('disk ranking uses ephemeral storage over its request; pid ranking priority then processes', () => {
  const pods = [pod('a', { diskReq: '1Gi' }), pod('b'), pod('c', { priority: -5 })];
  const s = new Map([['a', podStats('a', 0, 2 * Gi)], ['b', podStats('b', 0, 100 * Mi)], ['c', podStats('c', 0, 0)]]);
  assert.deepEqual(rankPods(pods, 'nodefs.available', p => s.get(p.metadata.name)).map(p => p.metadata.name), ['a', 'b', 'c'], 'both over their requests: a by more');
  const procs = new Map([['a', { ...podStats('a', 0), process_stats: { process_count: 5 } }], ['b', { ...podStats('b', 0), process_stats: { process_count: 50 } }], ['c', { ...podStats('c', 0), process_stats: { process_count: 1 } }]]);
  assert.deepEqual(rankPods(pods, 'pid.available', p => procs.get(p.metadata.name)).map(p => p.metadata.name), ['c', 'b', 'a']);
});

test('the eviction message: the resource, the threshold and what each container used beyond its request', () => {
  const t = parseThresholds({ evictionHard: { 'memory.available': '100Mi' } });
  const obs = observe(summary({ memAvail: 50 * Mi }));
  const msg = evictionMessage(pod('p', { memReq: '64Mi' }), 'memory.available', t, obs, podStats('p', 300 * Mi));
  assert.equal(msg, 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. Container main was using 300Mi, request is 64Mi, has larger consumption of memory. ');
  assert.equal(evictionMessage(pod('q'), 'memory.available', t, obs, podStats('q', 10 * Mi)), 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. Container main was using 10Mi, request is 0, has larger consumption of memory. ');
  const disk = parseThresholds({ evictionHard: { 'nodefs.available': '10%' } });
  assert.equal(evictionMessage(pod('r'), 'nodefs.available', disk, observe(summary({ fsAvail: 5 * Gi })), undefined), 'The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 5Gi. ');
});

test('local storage: an emptyDir past its sizeLimit, a pod past its containers\' limits, a container past its own', () => {
  const withDir = pod('dir', { volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '10Mi' } }, { name: 'free', emptyDir: {} }] });
  const podLimit = pod('total', { limits: { 'ephemeral-storage': '100Mi' } });
  const ok = pod('ok', { volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '10Mi' } }] });
  const s = new Map([
    ['dir', podStats('dir', 0, 0, [['scratch', 11 * Mi], ['free', Gi]])],
    ['total', podStats('total', 0, 60 * Mi, [['v', 50 * Mi]])],
    ['ok', podStats('ok', 0, 0, [['scratch', 9 * Mi]])],
  ]);
  const v = localStorageViolations([withDir, podLimit, ok], p => s.get(p.metadata.name));
  assert.deepEqual(v.map(x => [x.pod.metadata.name, x.message]), [
    ['dir', 'Usage of EmptyDir volume "scratch" exceeds the limit "10Mi". '],
    ['total', 'Pod ephemeral local storage usage exceeds the total limit of containers 100Mi. '],
  ]);
  const twoContainers = { ...podLimit, spec: { ...podLimit.spec, containers: [podLimit.spec.containers[0]!, { name: 'side', image: 'i', resources: { limits: { 'ephemeral-storage': '1Gi' } } }] } } as Pod;
  const own = localStorageViolations([twoContainers], () => podStats('total', 0, 120 * Mi));
  assert.deepEqual(own.map(x => x.message), ['Container main exceeded its local ephemeral storage limit "100Mi". ']);
});

test('admission under pressure: memory pressure refuses BestEffort pods unless they tolerate it; disk pressure refuses all; critical pods pass', () => {
  const be = pod('be');
  const burst = pod('burst', { memReq: '10Mi' });
  const mem = new Set(['MemoryPressure']);
  assert.equal(pressureAdmission(be, new Set()), undefined);
  assert.deepEqual(pressureAdmission(be, mem), { reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' });
  assert.equal(pressureAdmission(burst, mem), undefined);
  assert.equal(pressureAdmission(pod('tol', { tolerations: [{ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' }] }), mem), undefined);
  assert.deepEqual(pressureAdmission(burst, new Set(['MemoryPressure', 'DiskPressure'])), { reason: 'Evicted', message: 'The node had condition: [MemoryPressure DiskPressure]. ' });
  assert.equal(pressureAdmission(pod('static', { annotations: { 'kubernetes.io/config.source': 'file' } }), new Set(['DiskPressure'])), undefined);
  assert.equal(pressureAdmission(pod('crit', { priority: 2_000_001_000 }), new Set(['DiskPressure'])), undefined);
});
