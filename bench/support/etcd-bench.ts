// orch on etcd next to the same etcd driven directly with the same client library, at the same
// concurrency: creates against raw transactional puts, gets against raw ranges, and a 1k list
// against a raw range of the same keys.

import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { percentile, runLoad, type LoadResult, type TlsClient } from './load.ts';
import { repoRoot, startChild } from './processes.ts';
import { etcdBinary, startEtcd } from '../../test/support/etcd.ts';

export interface EtcdBenchResult {
  rawPut: LoadResult; create: LoadResult;
  rawRange: LoadResult; get: LoadResult;
  rawList: LoadResult; list: LoadResult;
}

async function rawLoad(total: number, concurrency: number, op: (i: number) => Promise<unknown>): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0, errors = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      try { await op(i); } catch { errors++; }
      latencies.push(performance.now() - t0);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((x, y) => x - y);
  return { requests: total, errors, seconds, perSecond: total / seconds, p50ms: percentile(latencies, 50), p99ms: percentile(latencies, 99) };
}

export async function runEtcdBench(dir: string, tlsFrom: (kubeconfig: string) => Promise<TlsClient>, waitReady: (url: string, tls: TlsClient) => Promise<void>, opts: { creates: number; gets: number }): Promise<EtcdBenchResult | string> {
  if (!etcdBinary()) return 'etcd is not installed (apt-get install etcd-server)';
  const etcd = await startEtcd(1);
  const client = new Etcd3({ hosts: etcd.endpoints });
  const server = await startChild(join(repoRoot, 'bin/orch'), ['server', '--data-dir', join(dir, 'orch-etcd'), '--port', '0', '--storage-backend=etcd3', `--etcd-servers=${etcd.endpoints.join(',')}`]);
  try {
    const tls = await tlsFrom(join(dir, 'orch-etcd', 'admin.kubeconfig'));
    await waitReady(server.url, tls);
    const body = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { key: 'value', other: 'x'.repeat(200) } });
    const stored = Buffer.from(body('x'));
    const concurrency = 32;
    // raw: the same create-if-absent transaction orch makes, with the same payload size
    const rawPut = await rawLoad(opts.creates, concurrency, i => {
      const key = Buffer.from(`/raw/configmaps/default/r${i}`);
      return client.kv.txn({ compare: [{ key, target: 'Create', result: 'Equal', create_revision: 0 }], success: [{ request_put: { key, value: stored } }] });
    });
    const cm = '/api/v1/namespaces/default/configmaps';
    const create = await runLoad(server.url, tls, { total: opts.creates, concurrency, request: i => ({ method: 'POST', path: cm, body: body(`c${i}`) }), expect: 201 });
    const rawRange = await rawLoad(opts.gets, concurrency, i => client.kv.range({ key: Buffer.from(`/raw/configmaps/default/r${i % opts.creates}`) }));
    const get = await runLoad(server.url, tls, { total: opts.gets, concurrency, request: i => ({ method: 'GET', path: `${cm}/c${i % opts.creates}` }), expect: 200 });
    const rawList = await rawLoad(20, 1, () => client.kv.range({ key: Buffer.from('/raw/configmaps/default/'), range_end: Buffer.from('/raw/configmaps/default0') }));
    const list = await runLoad(server.url, tls, { total: 20, concurrency: 1, request: () => ({ method: 'GET', path: cm }), expect: 200 });
    return { rawPut, create, rawRange, get, rawList, list };
  } finally {
    await server.stop();
    client.close();
    await etcd.close();
  }
}
