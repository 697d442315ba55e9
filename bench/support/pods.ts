// Pods at scale: list latency of 10k pods (against a raw server answering the same list), a
// node's pods through the spec.nodeName index, and the server's memory holding 100k pods.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, runLoad, type LoadResult, type TlsClient } from './load.ts';
import { node24, repoRoot, rssKiB, startChild } from './processes.ts';

export const podNodes = 100;

/** a pod as a controller would create it: labels, one container with ports, env and resources */
export function podBody(i: number): string {
  return JSON.stringify({
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: `p${i}`, labels: { app: `app${i % 50}`, 'pod-template-hash': 'abc123' } },
    spec: {
      nodeName: `node-${i % podNodes}`,
      containers: [{
        name: 'web', image: 'registry.example/web:1.2.3', ports: [{ containerPort: 8080, name: 'http' }],
        env: [{ name: 'MODE', value: 'production' }, { name: 'INDEX', value: String(i) }],
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
      }],
    },
  });
}

export interface PodBenchResult {
  created: number;
  createRate: LoadResult;
  rawList: LoadResult;
  list: LoadResult;
  nodeList: LoadResult;
  rssMiB: number;
  largeCount: number;
  largeRssMiB: number;
  /** the whole large set listed at once */
  largeList?: LoadResult;
}

export async function runPodBench(url: string, pid: number, tls: TlsClient, dir: string, opts: { listSize: number; largeCount: number }): Promise<PodBenchResult> {
  const ns = 'pods-bench';
  await runLoad(url, tls, { total: 1, concurrency: 1, request: () => ({ method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) }) });
  const path = `/api/v1/namespaces/${ns}/pods`;
  const createRate = await runLoad(url, tls, { total: opts.listSize, concurrency: 32, request: i => ({ method: 'POST', path, body: podBody(i) }), expect: 201 });

  // the raw server answers the list orch itself returned, byte for byte
  const sample = await fetchText(url, tls, path);
  const payload = join(dir, 'pods-list.json');
  await writeFile(payload, sample);
  const raw = await startChild(node24, [join(repoRoot, 'bench/support/raw-server.ts'), join(dir, 'orch', 'pki'), 'plain', payload]);
  const rawList = await runLoad(raw.url, tls, { total: 10, concurrency: 1, request: () => ({ method: 'GET', path: '/x' }), expect: 200 });
  await raw.stop();
  const list = await runLoad(url, tls, { total: 10, concurrency: 1, request: () => ({ method: 'GET', path }), expect: 200 });
  const nodeList = await runLoad(url, tls, { total: 50, concurrency: 1, request: i => ({ method: 'GET', path: `/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-${i % podNodes}` }), expect: 200 });
  const rssMiB = rssKiB(pid) / 1024;

  const rest = opts.largeCount - opts.listSize;
  if (rest > 0) {
    const step = 10_000;
    for (let done = 0; done < rest; done += step) {
      const n = Math.min(step, rest - done);
      await runLoad(url, tls, { total: n, concurrency: 32, request: i => ({ method: 'POST', path, body: podBody(opts.listSize + done + i) }), expect: 201 });
      process.stdout.write(`  ${opts.listSize + done + n} pods created\r`);
    }
    process.stdout.write('\n');
  }
  // the memory held at rest: a few idle seconds let the server give the burst's garbage back
  await new Promise(r => setTimeout(r, 4000));
  const largeRssMiB = rssKiB(pid) / 1024;
  const largeList = rest > 0 ? await runLoad(url, tls, { total: 3, concurrency: 1, request: () => ({ method: 'GET', path }), expect: 200 }) : undefined;
  return { created: opts.largeCount, createRate, rawList, list, nodeList, rssMiB, largeCount: Math.max(opts.largeCount, opts.listSize), largeRssMiB, largeList };
}

async function fetchText(url: string, tls: TlsClient, path: string): Promise<string> {
  const session = connect(url, tls);
  try {
    return await new Promise<string>((resolve, reject) => {
      const s = session.request({ ':path': path });
      let body = '';
      s.setEncoding('utf8');
      s.on('data', (c: string) => { body += c; });
      s.on('end', () => resolve(body));
      s.on('error', reject);
    });
  } finally {
    session.close();
  }
}
