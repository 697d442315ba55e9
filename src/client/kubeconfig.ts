// Reading a kubeconfig: the current context's server and credentials. Inline *-data fields win
// over their file-path variants; relative paths are read relative to the kubeconfig's folder, as
// kubectl reads them.

import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { yamlLibrary } from '../api/yaml-library.ts';

export interface ClientConfig {
  server: string;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  token?: string;
  /** where cert and key were read from, when files (not inline data): read again as client-go does */
  certFile?: string;
  keyFile?: string;
  /** check the server certificate against this name instead of the URL's host */
  tlsServerName?: string;
  insecureSkipTLSVerify?: boolean;
}

type Fields = Record<string, unknown>;
interface Named { name?: string; [k: string]: unknown }

function entry(list: unknown, name: string, field: string): Fields | undefined {
  if (!Array.isArray(list)) return undefined;
  const found = (list as Named[]).find(e => e?.name === name);
  return found?.[field] as Fields | undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** the client configuration of the kubeconfig file's current context (or of `context` if given) */
export async function loadKubeconfig(path: string, context?: string): Promise<ClientConfig> {
  return parseKubeconfig(await readFile(path, 'utf8'), { baseDir: dirname(path), context, source: path });
}

export async function parseKubeconfig(text: string, opts: { baseDir?: string; context?: string; source?: string } = {}): Promise<ClientConfig> {
  const where = `kubeconfig ${opts.source ?? ''}`.trim();
  const kc = (yamlLibrary().parse(text) ?? {}) as Fields;
  const ctxName = opts.context ?? str(kc['current-context']);
  if (!ctxName) throw new Error(`${where}: no current context`);
  const ctx = entry(kc.contexts, ctxName, 'context');
  if (!ctx) throw new Error(`${where}: context ${JSON.stringify(ctxName)} not found`);
  const clusterName = String(ctx.cluster ?? '');
  const cluster = entry(kc.clusters, clusterName, 'cluster');
  if (!cluster) throw new Error(`${where}: cluster ${JSON.stringify(clusterName)} not found`);
  const server = str(cluster.server);
  if (!server) throw new Error(`${where}: cluster ${JSON.stringify(clusterName)} has no server`);
  const user = (ctx.user !== undefined ? entry(kc.users, String(ctx.user), 'user') : undefined) ?? {};

  const resolved = (p: string) => (opts.baseDir && !isAbsolute(p) ? join(opts.baseDir, p) : p);
  const file = (p: string) => readFile(resolved(p));
  const data = async (inline: unknown, path: unknown): Promise<Buffer | undefined> => {
    const s = str(inline);
    if (s) return Buffer.from(s, 'base64');
    const p = str(path);
    return p ? file(p) : undefined;
  };
  const tokenFile = str(user.tokenFile);
  const token = str(user.token) ?? (tokenFile ? (await file(tokenFile)).toString('utf8').trim() : undefined);

  const cfg: ClientConfig = { server };
  const ca = await data(cluster['certificate-authority-data'], cluster['certificate-authority']);
  const cert = await data(user['client-certificate-data'], user['client-certificate']);
  const key = await data(user['client-key-data'], user['client-key']);
  if (ca) cfg.ca = ca;
  if (cert) cfg.cert = cert;
  if (key) cfg.key = key;
  const certPath = str(user['client-certificate']), keyPath = str(user['client-key']);
  if (cert && key && !str(user['client-certificate-data']) && !str(user['client-key-data']) && certPath && keyPath) {
    cfg.certFile = resolved(certPath);
    cfg.keyFile = resolved(keyPath);
  }
  if (token) cfg.token = token;
  const serverName = str(cluster['tls-server-name']);
  if (serverName) cfg.tlsServerName = serverName;
  if (cluster['insecure-skip-tls-verify'] === true) cfg.insecureSkipTLSVerify = true;
  return cfg;
}
