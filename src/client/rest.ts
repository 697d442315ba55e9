// A small REST client for the Kubernetes API: JSON bodies over HTTPS (or HTTP) with keep-alive,
// watches as streams of JSON lines, and failures as ApiError carrying the server's Status.

import { ApiError, apiErrorFromResponse } from './api-error.ts';
import type { ClientConfig } from './kubeconfig.ts';
import { resourcePath, withQuery, type Query } from './paths.ts';
import { createTransport, type Credentials } from './transport.ts';
import { reloadCertFiles } from './cert-files.ts';
import { openWatch, type WatchEvent, type WatchHandle } from './watch.ts';

export { ApiError, resourcePath, withQuery };
export type { Query, WatchEvent, WatchHandle };

export interface RequestOptions {
  query?: Query;
  /** content type of the body; a string body is sent as is, anything else as JSON */
  contentType?: string;
  headers?: Record<string, string>;
  /** overrides the client's request timeout (0: none) */
  timeoutMs?: number;
}

/** DeleteOptions fields sent as the body of a delete */
export interface DeleteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
}

export interface Client {
  request<T = any>(method: string, path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  get<T = any>(path: string, query?: Query): Promise<T>;
  list<T = any>(path: string, query?: Query): Promise<T>;
  create<T = any>(path: string, body: unknown, query?: Query): Promise<T>;
  update<T = any>(path: string, body: unknown, query?: Query): Promise<T>;
  /** contentType: application/merge-patch+json (default), application/json-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml */
  patch<T = any>(path: string, body: unknown, contentType?: string, query?: Query): Promise<T>;
  delete<T = any>(path: string, options?: DeleteOptions, query?: Query): Promise<T>;
  deleteCollection<T = any>(path: string, query?: Query, options?: DeleteOptions): Promise<T>;
  /** see openWatch: onError(undefined) means the server ended the watch cleanly; `accept` asks for another representation (a metadata-only view) */
  watch(path: string, query: Query | undefined, onEvent: (e: WatchEvent) => void, onError: (err?: Error) => void, accept?: string): WatchHandle;
  /** a rotated client certificate or refreshed token, used from the next request on */
  setCredentials(c: Credentials): void;
  /** ends open watches and closes idle connections */
  close(): void;
}

export interface ClientOptions {
  /** for requests other than watches; default 60s */
  requestTimeoutMs?: number;
  maxSockets?: number;
  userAgent?: string;
  /** how often a certificate named by files is read again; default 5 minutes, as client-go */
  certReloadMs?: number;
}

export function createClient(cfg: ClientConfig, opts: ClientOptions = {}): Client {
  const transport = createTransport(cfg, { maxSockets: opts.maxSockets });
  const timeout = opts.requestTimeoutMs ?? 60_000;
  const userAgent = opts.userAgent ?? 'orch-client';
  const watches = new Set<WatchHandle>();
  const reload = cfg.certFile && cfg.keyFile && cfg.cert
    ? reloadCertFiles({ certFile: cfg.certFile, keyFile: cfg.keyFile }, cfg.cert, c => transport.setCredentials(c), opts.certReloadMs)
    : undefined;

  async function request<T>(method: string, path: string, body?: unknown, ro: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent, ...ro.headers };
    let payload: Buffer | undefined;
    if (body !== undefined) {
      payload = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      headers['content-type'] = ro.contentType ?? 'application/json';
    }
    const res = await transport.send(method, withQuery(path, ro.query), headers, payload, ro.timeoutMs ?? timeout);
    if (res.statusCode < 200 || res.statusCode >= 300) throw apiErrorFromResponse(res.statusCode, res.body);
    if (!res.body) return undefined as T;
    try { return JSON.parse(res.body) as T; } catch { return res.body as T; }
  }

  const deleteBody = (o?: DeleteOptions) => (o ? { kind: 'DeleteOptions', apiVersion: 'v1', ...o } : undefined);

  return {
    request,
    get: (path, query) => request('GET', path, undefined, { query }),
    list: (path, query) => request('GET', path, undefined, { query }),
    create: (path, body, query) => request('POST', path, body, { query }),
    update: (path, body, query) => request('PUT', path, body, { query }),
    patch: (path, body, contentType = 'application/merge-patch+json', query) => request('PATCH', path, body, { query, contentType }),
    delete: (path, options, query) => request('DELETE', path, deleteBody(options), { query }),
    deleteCollection: (path, query, options) => request('DELETE', path, deleteBody(options), { query }),
    watch(path, query, onEvent, onError, accept) {
      const h = openWatch(transport, withQuery(path, { ...query, watch: 'true' }), onEvent, err => { watches.delete(handle); onError(err); }, accept);
      const handle: WatchHandle = { stop() { watches.delete(handle); h.stop(); } };
      watches.add(handle);
      return handle;
    },
    setCredentials(c) { transport.setCredentials(c); },
    close() {
      reload?.stop();
      for (const w of [...watches]) w.stop();
      transport.close();
    },
  };
}
