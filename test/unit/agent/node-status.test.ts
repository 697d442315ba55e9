import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MachineFacts } from '../../../src/agent/machine/facts.ts';
import { conditionsChanged, observedConditions, stampConditions } from '../../../src/agent/node-status/conditions.ts';
import { formatBytes, nodeResources } from '../../../src/agent/node-status/resources.ts';
import { containerSwapLimit, swapStartupProblem } from '../../../src/agent/swap.ts';
import { parseKernelVersion, sysctlKernelProblem } from '../../../src/agent/machine/kernel.ts';

const Gi = 2 ** 30, Mi = 2 ** 20;
const facts: MachineFacts = {
  hostname: 'n1', kernelVersion: '6.1.0', osImage: 'Debian', operatingSystem: 'linux', architecture: 'amd64', machineID: 'm', systemUUID: 'u', bootID: 'b',
  cpus: 4, memoryBytes: 16 * Gi, hugepages: { '2Mi': 512 * Mi }, swapBytes: 0, pidMax: 4_194_304,
};

test('allocatable is capacity less reservations, the hard eviction threshold and hugepages', () => {
  const r = nodeResources(facts, 100 * Gi, 110, {
    systemReserved: { cpu: '500m', memory: '1Gi', 'ephemeral-storage': '1Gi' },
    kubeReserved: { cpu: '250m', memory: '512Mi' },
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '10%' },
  });
  assert.deepEqual(r.capacity, { cpu: '4', 'ephemeral-storage': '100Gi', memory: '16Gi', pods: '110', 'hugepages-2Mi': '512Mi' });
  assert.equal(r.allocatable.cpu, '3250m');
  assert.equal(r.allocatable.memory, formatBytes(16 * Gi - Gi - 512 * Mi - 100 * Mi - 512 * Mi));
  assert.equal(r.allocatable['ephemeral-storage'], formatBytes(100 * Gi - Gi - 10 * Gi));
  assert.equal(r.allocatable.pods, '110');
  assert.equal(r.allocatable['hugepages-2Mi'], '512Mi');
  assert.equal(formatBytes(1536), '1536');
  assert.equal(formatBytes(24682416 * 1024), '24682416Ki');
});

const healthy = { notReadyReasons: [] as string[], networkReady: true };
const none = new Set<string>();

test('pressure conditions follow the eviction manager\'s, worded as the kubelet words them', () => {
  const byType = (p: Set<string>, h = healthy) => Object.fromEntries(observedConditions(p, h).map(c => [c.type, c]));
  const ok = byType(none);
  assert.deepEqual([ok.Ready!.status, ok.Ready!.reason, ok.Ready!.message], ['True', 'KubeletReady', 'kubelet is posting ready status']);
  assert.deepEqual([ok.MemoryPressure!.status, ok.MemoryPressure!.reason], ['False', 'KubeletHasSufficientMemory']);
  assert.deepEqual([ok.DiskPressure!.status, ok.PIDPressure!.status, ok.NetworkUnavailable!.status], ['False', 'False', 'False']);
  assert.equal(byType(new Set(['MemoryPressure'])).MemoryPressure!.reason, 'KubeletHasInsufficientMemory');
  assert.deepEqual([byType(new Set(['DiskPressure'])).DiskPressure!.status, byType(new Set(['DiskPressure'])).DiskPressure!.reason], ['True', 'KubeletHasDiskPressure']);
  assert.equal(byType(new Set(['PIDPressure'])).PIDPressure!.reason, 'KubeletHasInsufficientPID');
  const down = byType(none, { notReadyReasons: ['container runtime is down'], networkReady: false });
  assert.deepEqual([down.Ready!.status, down.Ready!.reason, down.Ready!.message], ['False', 'KubeletNotReady', 'container runtime is down']);
  assert.equal(down.NetworkUnavailable!.status, 'True');
});

test('every report moves heartbeats; transitions move only when a status changes', () => {
  const first = stampConditions(undefined, observedConditions(none, healthy), 't1');
  assert.ok(first.every(c => c.lastHeartbeatTime === 't1' && c.lastTransitionTime === 't1'));
  const second = stampConditions(first, observedConditions(none, healthy), 't2');
  assert.ok(second.every(c => c.lastHeartbeatTime === 't2' && c.lastTransitionTime === 't1'));
  assert.equal(conditionsChanged(first, second), false);
  const third = stampConditions([...second, { type: 'Custom', status: 'True', reason: 'x', message: '', lastHeartbeatTime: 't0', lastTransitionTime: 't0' }],
    observedConditions(new Set(['MemoryPressure']), healthy), 't3');
  const mem = third.find(c => c.type === 'MemoryPressure')!;
  assert.deepEqual([mem.status, mem.lastTransitionTime], ['True', 't3']);
  assert.equal(third.find(c => c.type === 'Ready')!.lastTransitionTime, 't1');
  assert.ok(third.some(c => c.type === 'Custom'), 'conditions of other writers are kept');
  assert.equal(conditionsChanged(second, third), true);
});

test('swap: refused at start unless failSwapOn is false; LimitedSwap shares swap by memory request', () => {
  assert.match(swapStartupProblem(Gi, true)!, /running with swap on is not supported/);
  assert.equal(swapStartupProblem(Gi, false), undefined);
  assert.equal(swapStartupProblem(0, true), undefined);
  const base = { qosClass: 'Burstable', memoryRequestBytes: 2 * Gi, nodeMemoryBytes: 16 * Gi, swapCapacityBytes: 8 * Gi };
  assert.equal(containerSwapLimit('LimitedSwap', base), Gi);
  assert.equal(containerSwapLimit('NoSwap', base), 0);
  assert.equal(containerSwapLimit('LimitedSwap', { ...base, qosClass: 'Guaranteed' }), 0);
  assert.equal(containerSwapLimit('LimitedSwap', { ...base, qosClass: 'BestEffort', memoryRequestBytes: 0 }), 0);
});

test('kernel versions gate namespaced sysctls', () => {
  assert.deepEqual(parseKernelVersion('6.18.44-fc-v445'), [6, 18, 44]);
  assert.equal(sysctlKernelProblem('net.ipv4.tcp_rmem', [6, 1, 0]), undefined);
  assert.match(sysctlKernelProblem('net.ipv4.tcp_rmem', [4, 14, 0])!, /requires kernel 4\.15 or later/);
  assert.equal(sysctlKernelProblem('kernel.shm_rmid_forced', [3, 0, 0]), undefined);
});
