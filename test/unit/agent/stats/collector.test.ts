// The Summary and the resource metrics from a simulated runtime (its stats model) and a fake
// host tree: node figures from /proc and the root cgroup, pods and containers from the CRI's
// stats calls, CPU rates from two samples, volumes and logs measured on disk.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { statsCollector } from '../../../../src/agent/stats/collector.ts';
import { resourceMetrics } from '../../../../src/agent/stats/resource-metrics.ts';
import { CpuRates } from '../../../../src/agent/stats/cpu-rate.ts';
import { parseNetDev } from '../../../../src/agent/stats/host-stats.ts';
import { hostFiles } from '../../../../src/agent/machine/host-files.ts';
import { containerLabels, sandboxLabels } from '../../../../src/agent/pods/cri-labels.ts';
import { fakeClock } from '../fake-clock.ts';
import { startSim } from '../../runtime-sim/sim-fixture.ts';

const netDev = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:  100 1 0 0 0 0 0 0  100 1 0 0 0 0 0 0
  eth0: 5000 10 2 0 0 0 0 0 7000 12 3 0 0 0 0 0
`;

async function hostTree(dir: string, cpuNs: number): Promise<void> {
  await mkdir(join(dir, 'proc/sys/kernel'), { recursive: true });
  await mkdir(join(dir, 'sys/fs/cgroup/cpuacct'), { recursive: true });
  await mkdir(join(dir, 'sys/fs/cgroup/memory'), { recursive: true });
  await writeFile(join(dir, 'proc/meminfo'), 'MemTotal: 4194304 kB\nMemAvailable: 2097152 kB\n');
  await writeFile(join(dir, 'proc/loadavg'), '0.1 0.2 0.3 2/345 999\n');
  await writeFile(join(dir, 'proc/sys/kernel/pid_max'), '4194304\n');
  await mkdir(join(dir, 'proc/net'), { recursive: true });
  await writeFile(join(dir, 'proc/net/dev'), netDev);
  await writeFile(join(dir, 'sys/fs/cgroup/cpuacct/cpuacct.usage'), `${cpuNs}\n`);
  await writeFile(join(dir, 'sys/fs/cgroup/memory/memory.usage_in_bytes'), `${1024 ** 3}\n`);
  await writeFile(join(dir, 'sys/fs/cgroup/memory/memory.stat'), `total_inactive_file ${256 * 1024 ** 2}\n`);
}

test('/proc/net/dev: loopback left out, bytes and errors per interface', () => {
  assert.deepEqual(parseNetDev(netDev), [{ name: 'eth0', rxBytes: 5000, rxErrors: 2, txBytes: 7000, txErrors: 3 }]);
});

test('CPU rates: none until two samples a second apart; a counter that goes back starts again', () => {
  const r = new CpuRates();
  assert.equal(r.rate('a', { timeNs: 0, usageNs: 0 }), undefined);
  assert.equal(r.rate('a', { timeNs: 5e8, usageNs: 1e8 }), undefined);
  assert.equal(r.rate('a', { timeNs: 2e9, usageNs: 1e9 }), 5e8);
  assert.equal(r.rate('a', { timeNs: 2.5e9, usageNs: 1.2e9 }), 5e8, 'too close: the last rate');
  assert.equal(r.rate('a', { timeNs: 3e9, usageNs: 10 }), undefined, 'restarted');
});

test('summary: node from the host tree, a pod and its containers from the runtime, volumes and logs from disk', async t => {
  const clock = fakeClock();
  const fx = await startSim(t, { clock, startDelayMs: 0 });
  const host = join(fx.dir, 'host');
  await hostTree(host, 10e9);
  const rootDir = join(fx.dir, 'root');
  const logs = join(fx.dir, 'logs');
  const uid = 'uid-web';
  const pod = { metadata: { name: 'web', namespace: 'default', uid }, spec: { containers: [{ name: 'main', image: 'busybox' }] }, status: { startTime: '2026-11-22T09:59:00Z' } } as any;
  const sb = await fx.runPod('web', {
    metadata: { name: 'web', namespace: 'default', uid, attempt: 0 },
    labels: sandboxLabels(pod),
    annotations: { 'runtime-sim.orch.io/cpu-millicores': '250', 'runtime-sim.orch.io/memory-bytes': String(50 * 1024 * 1024) },
  });
  await fx.runContainer(sb, { metadata: { name: 'main', attempt: 0 }, labels: containerLabels(pod, 'main'), command: ['sleep', '3600'] });
  const volume = join(rootDir, 'pods', uid, 'volumes', 'kubernetes.io~empty-dir', 'scratch');
  await mkdir(volume, { recursive: true });
  await writeFile(join(volume, 'data'), Buffer.alloc(64 * 1024, 1));
  await mkdir(join(logs, `default_web_${uid}`, 'main'), { recursive: true });
  await writeFile(join(logs, `default_web_${uid}`, 'main', '0.log'), Buffer.alloc(8192, 1));
  const disk = async () => ({ capacity: 100e9, available: 40e9, inodes: 1000, inodesFree: 600 });
  const collector = statsCollector({ nodeName: 'n1', startedAtMs: clock.now(), files: hostFiles(host), rootDir, podLogsDir: logs, disk, cri: fx.cri, pods: () => [pod], now: () => clock.now() });

  const first = (await collector.collect()).summary;
  assert.equal(first.node.cpu?.usageNanoCores, undefined, 'no rate from one sample');
  await clock.advance(10_000);
  await hostTree(host, 15e9);
  const { summary, runtimeError } = await collector.collect();
  assert.equal(runtimeError, undefined);
  const n = summary.node;
  assert.equal(n.nodeName, 'n1');
  assert.equal(n.cpu?.usageCoreNanoSeconds, 15e9);
  assert.equal(n.cpu?.usageNanoCores, 5e8, '5 s of CPU over 10 s');
  assert.equal(n.memory?.workingSetBytes, 768 * 1024 ** 2, 'root cgroup usage minus inactive file');
  assert.equal(n.memory?.availableBytes, 4 * 1024 ** 3 - 768 * 1024 ** 2);
  assert.deepEqual({ ...n.network, time: undefined }, { time: undefined, name: 'eth0', rxBytes: 5000, rxErrors: 2, txBytes: 7000, txErrors: 3, interfaces: [{ name: 'eth0', rxBytes: 5000, rxErrors: 2, txBytes: 7000, txErrors: 3 }] });
  assert.equal(n.fs?.capacityBytes, 100e9);
  assert.equal(n.fs?.usedBytes, 60e9);
  assert.deepEqual({ maxpid: n.rlimit?.maxpid, curproc: n.rlimit?.curproc }, { maxpid: 4194304, curproc: 345 });
  assert.ok(n.runtime?.imageFs, 'image filesystem from ImageFsInfo');

  assert.equal(summary.pods.length, 1);
  const p = summary.pods[0]!;
  assert.deepEqual(p.podRef, { name: 'web', namespace: 'default', uid });
  assert.equal(p.startTime, '2026-11-22T09:59:00Z');
  const c = p.containers[0]!;
  assert.equal(c.name, 'main');
  assert.equal(c.memory?.workingSetBytes, 50 * 1024 * 1024);
  assert.equal(c.cpu?.usageCoreNanoSeconds, 2.5e9, '250 millicores for 10 s');
  assert.equal(c.cpu?.usageNanoCores, 2.5e8);
  assert.equal(p.cpu?.usageNanoCores, 2.5e8);
  assert.equal(p.memory?.workingSetBytes, 50 * 1024 * 1024);
  assert.equal(p.network?.name, 'eth0', 'pod network from ListPodSandboxStats');
  assert.ok((c.logs?.usedBytes ?? 0) >= 8192, JSON.stringify(c.logs));
  const scratch = p.volume?.find(v => v.name === 'scratch');
  assert.ok(scratch && (scratch.usedBytes ?? 0) >= 64 * 1024 && scratch.inodesUsed === 2, JSON.stringify(p.volume));
  assert.ok((p['ephemeral-storage']?.usedBytes ?? 0) >= 64 * 1024 + 8192);

  const text = resourceMetrics(summary, false);
  assert.match(text, /^# HELP node_cpu_usage_seconds_total \[STABLE\] Cumulative cpu time consumed by the node in core-seconds\n# TYPE node_cpu_usage_seconds_total counter\nnode_cpu_usage_seconds_total 15 \d+$/m);
  assert.match(text, /^container_memory_working_set_bytes\{container="main",namespace="default",pod="web"\} 52428800 \d+$/m);
  assert.match(text, /^container_cpu_usage_seconds_total\{container="main",namespace="default",pod="web"\} 2\.5 \d+$/m);
  assert.match(text, /^pod_memory_working_set_bytes\{namespace="default",pod="web"\} 52428800 \d+$/m);
  assert.match(text, /^node_memory_working_set_bytes 805306368 \d+$/m);
  assert.match(text, /^scrape_error 0$/m);
});

test('a runtime whose stats calls fail: the node alone, and scrape_error 1', async t => {
  const fx = await startSim(t);
  const host = join(fx.dir, 'host');
  await hostTree(host, 1e9);
  const cri = { ...fx.cri, listContainerStats: async () => { throw new Error('runtime down'); } } as any;
  const collector = statsCollector({ nodeName: 'n1', startedAtMs: 0, files: hostFiles(host), rootDir: fx.dir, podLogsDir: fx.dir, disk: async () => ({ capacity: 1, available: 1, inodes: 1, inodesFree: 1 }), cri, pods: () => [], now: Date.now });
  const { summary, runtimeError } = await collector.collect();
  assert.match(runtimeError ?? '', /runtime down/);
  assert.deepEqual(summary.pods, []);
  assert.match(resourceMetrics(summary, true), /^scrape_error 1$/m);
});
