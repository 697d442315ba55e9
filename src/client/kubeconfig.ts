// Reading a kubeconfig: the current context's server and credentials.

import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

export interface ClientConfig {
  server: string;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  token?: string;
}

interface Named<T> { name: string; [k: string]: T | string }

export async function loadKubeconfig(path: string): Promise<ClientConfig> {
  const kc = parse(await readFile(path, 'utf8'));
  const ctxName = kc['current-context'];
  const ctx = (kc.contexts as Array<Named<{ cluster: string; user: string }>>).find(c => c.name === ctxName)?.context as { cluster: string; user: string } | undefined;
  if (!ctx) throw new Error(`kubeconfig ${path}: current context ${JSON.stringify(ctxName)} not found`);
  const cluster = (kc.clusters as Array<Named<Record<string, string>>>).find(c => c.name === ctx.cluster)?.cluster as Record<string, string> | undefined;
  const user = ((kc.users ?? []) as Array<Named<Record<string, string>>>).find(u => u.name === ctx.user)?.user as Record<string, string> | undefined;
  if (!cluster?.server) throw new Error(`kubeconfig ${path}: cluster ${JSON.stringify(ctx.cluster)} has no server`);
  const data = async (inline?: string, file?: string) => (inline ? Buffer.from(inline, 'base64') : file ? readFile(file) : undefined);
  return {
    server: cluster.server,
    ca: await data(cluster['certificate-authority-data'], cluster['certificate-authority']),
    cert: await data(user?.['client-certificate-data'], user?.['client-certificate']),
    key: await data(user?.['client-key-data'], user?.['client-key']),
    token: user?.token,
  };
}
