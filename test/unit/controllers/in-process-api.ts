// A real API server in this process (SQLite in a temp dir, no controllers), and a client of it,
// for tests of controllers that act through the API; `pods` helps play the node's part.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/api/log.ts';
import { startServer } from '../../../src/apiserver/start.ts';
import { loadKubeconfig } from '../../../src/client/kubeconfig.ts';
import { createClient, type Client } from '../../../src/client/rest.ts';

export interface InProcessApi {
  client: Client;
  close(): Promise<void>;
}

export async function startInProcessApi(): Promise<InProcessApi> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-ctl-'));
  const server = await startServer({ dataDir: dir, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0 });
  const client = createClient(await loadKubeconfig(server.kubeconfigPath));
  // what the service account controller (not running here) makes: pods need their account
  await client.create('/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  return {
    client,
    async close() {
      client.close();
      await server.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** what a node does for a pod: runs it and reports it ready (since `readySince`, ISO) */
export async function markReady(client: Client, ns: string, name: string, readySince = new Date().toISOString().replace(/\.\d+Z$/, 'Z')): Promise<void> {
  const path = `/api/v1/namespaces/${ns}/pods/${name}`;
  for (let attempt = 0; ; attempt++) {
    const pod = await client.get(path);
    pod.status = { ...pod.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: readySince }] };
    try { await client.update(`${path}/status`, pod); return; } catch (err) { if (attempt > 3) throw err; }
  }
}

/** polls until fn returns something truthy */
export async function eventually<T>(fn: () => Promise<T | undefined | false>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try { const v = await fn(); if (v) return v; } catch (err) { last = err; }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise(r => setTimeout(r, 50));
  }
}

/** plays every node: each pod that appears is reported running and ready at once */
export function autoReady(client: Client): { stop(): void } {
  let stopped = false;
  const seen = new Set<string>();
  const loop = async () => {
    while (!stopped) {
      try {
        const pods = (await client.list('/api/v1/pods')).items as Array<{ metadata: { name: string; namespace: string; uid: string; deletionTimestamp?: string } }>;
        for (const p of pods) {
          if (seen.has(p.metadata.uid) || p.metadata.deletionTimestamp) continue;
          seen.add(p.metadata.uid);
          await markReady(client, p.metadata.namespace, p.metadata.name).catch(() => seen.delete(p.metadata.uid));
        }
      } catch { /* the server is stopping */ }
      await new Promise(r => setTimeout(r, 30));
    }
  };
  void loop();
  return { stop() { stopped = true; } };
}
