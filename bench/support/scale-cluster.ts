// The clusters the scale bench runs its scenario against: one `orch server` on SQLite, or three
// `orch server` processes on one etcd, as a highly available control plane runs. The three share
// one cert dir (cluster CA, serving certificate, service-account key), so a token or certificate
// one issues is good at the others. The load is spread as a load balancer would: the server that
// starts first takes the controllers' and scheduler's leases (their writes go through it), the
// simulated nodes talk to the second, the bench's creates, watch and list to the third.

import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient, type Client } from '../../src/client/rest.ts';
import { etcdBinary, startEtcd, type EtcdCluster } from '../../test/support/etcd.ts';
import { repoRoot, startChild, type Child } from './processes.ts';

export type ScaleBackend = 'sqlite' | 'etcd';

export interface ScaleServer { role: string; pid: number; client: Client }

export interface ScaleStore {
  kind: 'SQLite' | 'etcd';
  /** the database file (SQLite's, not its WAL; etcd's bbolt file, not its WAL) */
  MiB: number;
  /** what of it holds live data (etcd: dbSizeInUse; a compacted bbolt file keeps its size) */
  inUseMiB?: number;
}

export interface ScaleCluster {
  label: string;
  servers: ScaleServer[];
  /** the kubeconfig of the server the simulated nodes talk to */
  nodesKubeconfig: string;
  /** the kubeconfig of the server the bench's creates, watch and list go to */
  benchKubeconfig: string;
  /** etcd's own process, which SQLite does not have */
  storePid?: number;
  store(): Promise<ScaleStore>;
  stop(): Promise<void>;
}

/** why the backend cannot run here, if it cannot */
export function scaleBackendSkipReason(backend: ScaleBackend): string | undefined {
  return backend === 'etcd' && !etcdBinary() ? 'etcd is not installed (apt-get install etcd-server)' : undefined;
}

async function startServer(dataDir: string, role: string, args: string[] = []): Promise<{ child: Child; server: ScaleServer; kubeconfig: string }> {
  const child = await startChild(join(repoRoot, 'bin/orch'), ['server', '--data-dir', dataDir, '--port', '0', ...args]);
  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  return { child, kubeconfig, server: { role, pid: child.child.pid!, client: createClient(await loadKubeconfig(kubeconfig)) } };
}

async function startSqlite(dir: string): Promise<ScaleCluster> {
  const dataDir = join(dir, 'orch');
  const s = await startServer(dataDir, 'all');
  return {
    label: 'SQLite, 1 server', servers: [s.server], nodesKubeconfig: s.kubeconfig, benchKubeconfig: s.kubeconfig,
    async store() {
      // the database and its write-ahead log, as the disk holds them
      let bytes = 0;
      for (const f of ['orch.db', 'orch.db-wal']) bytes += await stat(join(dataDir, f)).then(x => x.size, () => 0);
      return { kind: 'SQLite', MiB: bytes / 1048576 };
    },
    async stop() {
      s.server.client.close();
      await s.child.stop();
    },
  };
}

const leases = ['kube-controller-manager', 'kube-scheduler'];

/** the holders of the controllers' and scheduler's leases once both are held */
async function leaseHolders(client: Client, timeoutMs = 30_000): Promise<string[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const holders = await Promise.all(leases.map(name => client.get(`/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/${name}`).then(l => l.spec?.holderIdentity as string | undefined, () => undefined)));
    if (holders.every(Boolean)) return holders as string[];
    if (performance.now() > deadline) throw new Error(`leases ${leases.join(', ')} not held after ${timeoutMs} ms`);
    await new Promise(r => setTimeout(r, 200));
  }
}

async function startOnEtcd(dir: string): Promise<ScaleCluster> {
  const etcd: EtcdCluster = await startEtcd(1);
  const started: Awaited<ReturnType<typeof startServer>>[] = [];
  const stop = async () => {
    for (const s of started) s.server.client.close();
    await Promise.all(started.map(s => s.child.stop()));
    await etcd.close();
  };
  try {
    const certDir = join(dir, 'pki');
    await mkdir(certDir, { recursive: true });
    const args = ['--storage-backend=etcd3', `--etcd-servers=${etcd.endpoints.join(',')}`, `--cert-dir=${certDir}`];
    // alone at first, it takes both leases; the others then stand by for them
    started.push(await startServer(join(dir, 'orch-1'), 'leader', args));
    await leaseHolders(started[0]!.server.client);
    started.push(...await Promise.all([startServer(join(dir, 'orch-2'), 'nodes', args), startServer(join(dir, 'orch-3'), 'bench', args)]));
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    label: 'etcd, 3 servers', servers: started.map(s => s.server),
    nodesKubeconfig: started[1]!.kubeconfig, benchKubeconfig: started[2]!.kubeconfig, storePid: etcd.pid(0),
    async store() {
      const client = new Etcd3({ hosts: etcd.endpoints });
      try {
        const s = await client.maintenance.status();
        return { kind: 'etcd', MiB: Number(s.dbSize) / 1048576, inUseMiB: Number(s.dbSizeInUse) / 1048576 };
      } finally {
        client.close();
      }
    },
    stop,
  };
}

export function startScaleCluster(backend: ScaleBackend, dir: string): Promise<ScaleCluster> {
  return backend === 'etcd' ? startOnEtcd(dir) : startSqlite(dir);
}
