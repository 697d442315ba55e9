// A real API server in this process (SQLite in a temporary directory, no controllers), and an
// admin client for it, for controller tests that need the server's own behaviour: generateName,
// status subresources, scale, resourceVersions and watches as controllers meet them.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/api/log.ts';
import { startServer } from '../../../src/apiserver/start.ts';
import { loadKubeconfig, type ClientConfig } from '../../../src/client/kubeconfig.ts';
import { createClient, type Client } from '../../../src/client/rest.ts';

export interface InProcessApi {
  client: Client;
  config: ClientConfig;
  close(): Promise<void>;
}

export async function startInProcessApi(): Promise<InProcessApi> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-ctl-api-'));
  const server = await startServer({ dataDir: dir, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0 });
  const config = await loadKubeconfig(server.kubeconfigPath);
  const client = createClient(config);
  // what the service account controller (not running here) makes: pods need their account
  await client.create('/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  return {
    client, config,
    async close() {
      client.close();
      await server.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** waits until check returns something truthy, polling */
export async function eventually<T>(check: () => Promise<T>, what: string, timeoutMs = 10_000): Promise<Exclude<T, false | undefined | null>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as Exclude<T, false | undefined | null>;
    } catch (err) { last = err; }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise(r => setTimeout(r, 50));
  }
}
