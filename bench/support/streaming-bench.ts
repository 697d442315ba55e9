// exec and port-forward through the API server, on real containerd with busybox: `orch server`,
// an `orch agent`, a pod running busybox httpd with a 64 MiB file of random bytes. Exec
// round-trip latency is a short command (`true`) from the WebSocket dial to the exit status, one
// after another, beside the same exec asked of containerd directly (CRI Exec, then its URL); port-forward throughput is that file fetched over a forwarded connection
// (client → API server → agent → containerd's streaming server → the pod), beside the same file
// fetched straight from the same httpd at the pod's IP, and through containerd's own streaming
// server alone (the CRI PortForward URL, WebSocket v4, as the agent dials it), in the same run.

import net from 'node:net';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { runtimeKinds, startPodCluster, image } from '../../test/e2e/support/pod-runtimes.ts';
import { until } from '../../test/e2e/support/until.ts';
import { dialCommand } from '../../src/streaming/websocket/command-client.ts';
import { dialPortForward } from '../../src/streaming/websocket/portforward-client.ts';
import type { Duplex } from 'node:stream';
import { connectCri } from '../../src/agent/cri/client.ts';

export interface StreamingBench { execs: number; execP50ms: number; execP99ms: number; rawExecP50ms: number; rawExecP99ms: number; mib: number; forwardedMBps: number; directMBps: number; runtimeMBps: number }

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0; };
const fileMiB = 64;

/** GET /big over a connected stream; resolves with the MB/s of the whole answer */
function fetchBig(s: Duplex | net.Socket): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const t0 = performance.now();
    s.on('data', (d: Buffer) => { bytes += d.length; });
    s.once('end', () => {
      if (bytes < fileMiB * 1024 * 1024) return reject(new Error(`short answer: ${bytes} bytes`));
      resolve(bytes / 1e6 / ((performance.now() - t0) / 1000));
    });
    s.once('error', reject);
    s.write('GET /big HTTP/1.0\r\nHost: pod\r\n\r\n');
  });
}

export function streamingBenchSkipReason(): string | undefined {
  return runtimeKinds.find(k => k.name === 'containerd')!.missing();
}

export async function runStreamingBench(opts: { execs: number; rounds: number }): Promise<StreamingBench> {
  const kind = runtimeKinds.find(k => k.name === 'containerd')!;
  const afters: Array<() => unknown> = [];
  try {
    const k = await startPodCluster(kind, { after: fn => afters.push(fn) });
    const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { nodeName: k.node, containers: [{ name: 'httpd', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', `mkdir -p /www && head -c ${fileMiB * 1024 * 1024} /dev/urandom > /www/big && httpd -f -p 8080 -h /www`] }] } };
    await k.c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const pod = await until('web Running', async () => { const p = (await k.c.request('GET', '/api/v1/namespaces/default/pods/web')).json(); return p?.status?.containerStatuses?.[0]?.state?.running && p.status.podIP && p; }, 60_000);
    const ip: string = pod.status.podIP;
    const direct = () => fetchBig(net.connect(8080, ip));
    await until('httpd serving the file', () => direct().then(() => true, () => false), 30_000);

    const kc = parse(await readFile(k.orch.kubeconfig, 'utf8'));
    const b = (s: string) => Buffer.from(s, 'base64').toString();
    const server: string = kc.clusters[0].cluster.server;
    const tls = { ca: b(kc.clusters[0].cluster['certificate-authority-data']), cert: b(kc.users[0].user['client-certificate-data']), key: b(kc.users[0].user['client-key-data']) };

    const latencies: number[] = [];
    for (let i = 0; i < opts.execs; i++) {
      const t0 = performance.now();
      const c = await dialCommand(`${server}/api/v1/namespaces/default/pods/web/exec?command=true&stdout=true&stderr=true`, { tls });
      c.stdout.resume();
      c.stderr.resume();
      const status = await c.status;
      if (status) throw new Error(`exec failed: ${status.message}`);
      latencies.push(performance.now() - t0);
    }

    // the runtime's own streaming server, dialled as the agent dials it: the ceiling of this path
    const cri = await connectCri(k.endpoint);
    const sandbox = (await cri.listPodSandbox({})).items.find(x => x.metadata?.name === 'web')!;
    const container = (await cri.listContainers({})).containers.find(x => x.podSandboxId === sandbox.id)!;
    const raw: number[] = [];
    for (let i = 0; i < opts.execs; i++) {
      const t0 = performance.now();
      const { url } = await cri.exec({ containerId: container.id, cmd: ['true'], stdout: true, stderr: true });
      const c = await dialCommand(url, { protocols: ['v4.channel.k8s.io'] });
      c.stdout.resume();
      c.stderr.resume();
      if (await c.status) throw new Error('exec failed');
      raw.push(performance.now() - t0);
    }
    let forwarded = 0, directBest = 0, runtimeBest = 0;
    for (let r = 0; r < opts.rounds; r++) {
      directBest = Math.max(directBest, await direct());
      const { url } = await cri.portForward({ podSandboxId: sandbox.id, port: [8080] });
      const rs = await dialPortForward(`${url}?port=8080`, { protocols: ['v4.channel.k8s.io'] });
      runtimeBest = Math.max(runtimeBest, await fetchBig(rs));
      rs.destroy();
      const s = await dialPortForward(`${server}/api/v1/namespaces/default/pods/web/portforward?ports=8080`, { tls });
      forwarded = Math.max(forwarded, await fetchBig(s));
      s.destroy();
    }
    cri.close();
    return { execs: opts.execs, execP50ms: pct(latencies, 50), execP99ms: pct(latencies, 99), rawExecP50ms: pct(raw, 50), rawExecP99ms: pct(raw, 99), mib: fileMiB, forwardedMBps: forwarded, directMBps: directBest, runtimeMBps: runtimeBest };
  } finally {
    for (const fn of afters.reverse()) await Promise.resolve(fn()).catch(() => undefined);
  }
}
