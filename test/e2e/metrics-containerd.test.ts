// Node metrics on a real runtime: `orch server`, `orch agent` and a private containerd. The
// agent's /stats/summary and /metrics/resource report a running container from containerd's
// stats, and `kubectl top pods` / `kubectl top nodes` (newest and oldest kubectl) show figures
// that match the container's own memory cgroup within 10 %, with no metrics add-on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import https from 'node:https';
import { containerdSkipReason } from '../support/containerd.ts';
import { busyboxSkipReason } from '../support/oci-image.ts';
import { skipForMissing } from '../support/requires.ts';
import { busyboxImage as image, startContainerdCluster } from './support/containerd-cluster.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import type { OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';

/** a GET to the agent with the cluster's admin client certificate (the agent admits cluster-CA certificates) */
async function agentGet(orch: OrchProcess, port: number, path: string): Promise<{ status: number; body: string }> {
  const kc = await readFile(orch.kubeconfig, 'utf8');
  const field = (k: string) => Buffer.from(new RegExp(`${k}: (\\S+)`).exec(kc)![1]!, 'base64').toString();
  return new Promise((resolve, reject) => {
    https.get({ host: '127.0.0.1', port, path, cert: field('client-certificate-data'), key: field('client-key-data'), rejectUnauthorized: false }, res => {
      let body = '';
      res.on('data', d => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

/** the directory of a container's cgroup under `root`, wherever its pod's cgroup parent put it (kubepods/<qos>/pod<uid>/<id>, or k8s.io/<id>) */
async function findCgroup(root: string, containerId: string, depth = 4): Promise<string | undefined> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isDirectory() && e.name === containerId) return join(root, e.name);
  if (depth === 0) return undefined;
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const found = await findCgroup(join(root, e.name), containerId, depth - 1);
    if (found) return found;
  }
  return undefined;
}

/** what the kubelet calls the working set: usage minus inactive file pages, from the container's memory cgroup (v1 or v2) */
async function cgroupWorkingSet(containerId: string): Promise<number | undefined> {
  for (const root of ['/sys/fs/cgroup/memory', '/sys/fs/cgroup']) {
    const dir = await findCgroup(root, containerId);
    if (!dir) continue;
    const usage = await readFile(join(dir, 'memory.usage_in_bytes'), 'utf8').catch(() => readFile(join(dir, 'memory.current'), 'utf8').catch(() => undefined));
    if (usage === undefined) continue;
    const stat = await readFile(join(dir, 'memory.stat'), 'utf8');
    const inactive = /^(?:total_inactive_file|inactive_file) (\d+)$/m.exec(stat);
    return Number(usage.trim()) - Number(inactive?.[1] ?? 0);
  }
  return undefined;
}

/** "41Mi" / "1234Ki" / "12345" (kubectl top's MEMORY column) in bytes */
const bytesOf = (q: string) => Number(/^\d+/.exec(q)![0]) * ({ Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }[q.replace(/^\d+/, '')] ?? 1);

test('kubectl top on containerd: figures from the agent\'s stats match the container\'s cgroup', async t => {
  const skip = containerdSkipReason() ?? busyboxSkipReason();
  if (skip) return t.skip(skipForMissing(skip));
  const { orch, agent, c, node } = await startContainerdCluster(t, 'metrics');

  // 40 MiB held in the container's /dev/shm (tmpfs pages are charged to its memory cgroup), plus a busy loop
  const pod = {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'hog', namespace: 'default', labels: { app: 'hog' } },
    spec: { nodeName: node, terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'dd if=/dev/zero of=/dev/shm/fill bs=1M count=40; while true; do :; done'] }] },
  };
  assert.equal((await c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(pod), headers: { 'content-type': 'application/json' } })).status, 201);
  const running = await until('hog Running', async () => {
    const r = await c.request('GET', '/api/v1/namespaces/default/pods/hog');
    const p = r.status === 200 ? r.json() : undefined;
    return p?.status?.phase === 'Running' && p;
  }, 60_000);
  const containerId = running.status.containerStatuses[0].containerID.replace('containerd://', '');

  await t.test('the agent\'s Summary and resource metrics name the pod and its container', async () => {
    const summary = await until('a Summary with the pod', async () => {
      const r = await agentGet(orch, agent.port, '/stats/summary');
      const s = r.status === 200 ? JSON.parse(r.body) : undefined;
      const p = s?.pods.find((x: any) => x.podRef.name === 'hog');
      return p?.containers[0]?.memory?.workingSetBytes > 40 * 1024 ** 2 && s;
    }, 30_000);
    assert.equal(summary.node.nodeName, node);
    assert.ok(summary.node.memory.workingSetBytes > 0 && summary.node.fs.capacityBytes > 0 && summary.node.rlimit.maxpid > 0, JSON.stringify(summary.node));
    const p = summary.pods.find((x: any) => x.podRef.name === 'hog');
    assert.equal(p.podRef.uid, running.metadata.uid);
    assert.equal(p.containers[0].name, 'main');
    assert.ok(p.containers[0].cpu.usageCoreNanoSeconds > 0);
    assert.ok(p.containers[0].rootfs, 'the writable layer from containerd');
    assert.ok(p.network?.rxBytes !== undefined, `pod network: ${JSON.stringify(p.network)}`);
    const metrics = await agentGet(orch, agent.port, '/metrics/resource');
    assert.equal(metrics.status, 200);
    assert.match(metrics.body, /^container_memory_working_set_bytes\{container="main",namespace="default",pod="hog"\} \d+ \d+$/m);
    assert.match(metrics.body, /^node_cpu_usage_seconds_total [\d.e+]+ \d+$/m);
    assert.match(metrics.body, /^scrape_error 0$/m);
  });

  for (const k of kubectls()) {
    await t.test(`kubectl ${k.label} top pods and top nodes`, async t => {
      const top = await until(`${k.label}: kubectl top pod`, async () => {
        const r = await kubectl(k.path, orch.kubeconfig, ['top', 'pod', '-l', 'app=hog']);
        return r.code === 0 && /^hog\s+/m.test(r.stdout) && r;
      }, 40_000, 1000);
      const [, cpu, mem] = /^hog\s+(\d+)m\s+(\S+)\s*$/m.exec(top.stdout) ?? [];
      assert.ok(mem, top.stdout);
      const cgroup = await cgroupWorkingSet(containerId);
      assert.ok(cgroup, 'the container\'s memory cgroup');
      const shown = bytesOf(mem!);
      t.diagnostic(`kubectl ${k.label} top: ${cpu}m, ${mem} (${shown} bytes); cgroup working set ${cgroup} bytes`);
      assert.ok(Math.abs(shown - cgroup!) <= 0.1 * cgroup!, `${k.label}: kubectl top shows ${mem} (${shown} bytes), the cgroup holds ${cgroup}`);
      // the busy loop uses a core, as far as the machine's other work lets it
      assert.ok(Number(cpu) >= 50, `${k.label}: CPU ${cpu}m for a busy loop`);
      const one = await kubectl(k.path, orch.kubeconfig, ['top', 'pod', 'hog', '--containers']);
      assert.equal(one.code, 0, one.stderr);
      assert.match(one.stdout, /^hog\s+main\s+\d+m\s+\d+\S*\s*$/m);
      const nodes = await until(`${k.label}: kubectl top node`, async () => { const r = await kubectl(k.path, orch.kubeconfig, ['top', 'node']); return r.code === 0 && r; }, 20_000, 1000);
      assert.match(nodes.stdout, new RegExp(`^${node}\\s+\\d+m\\s+\\d+%\\s+\\d+Mi\\s+\\d+%\\s*$`, 'm'));
    });
  }
});
