// POST /checkpoint/<namespace>/<pod>/<container>[?timeout=<seconds>]: the kubelet's checkpoint
// endpoint. Registered only while the ContainerCheckpoint gate is on (off, the path is unknown:
// 404). Answers carry the kubelet's words: clients and scripts match on them.

import type { ServerResponse } from 'node:http';
import type { Route } from './https-server.ts';

/** a pod the agent runs, as far as a checkpoint needs it */
export interface CheckpointPod {
  /** every container name of the spec: regular, init and ephemeral */
  containerNames: string[];
  /** the running instance of that container in the runtime, if any */
  runningContainerId(container: string): Promise<string | undefined>;
}

export interface CheckpointBackend {
  pod(namespace: string, name: string): CheckpointPod | undefined;
  checkpoint(req: { namespace: string; pod: string; container: string; containerId: string | undefined; timeoutSeconds: number }): Promise<{ location: string } | { error: string }>;
}

export type CheckpointDecision =
  | { code: 404 | 405; body: string }
  | { namespace: string; pod: string; container: string; timeoutSeconds: number };

/** the request's shape alone: path, method and timeout, before any pod is looked up */
export function parseCheckpointRequest(method: string, url: URL): CheckpointDecision {
  const parts = url.pathname.split('/').slice(2);
  // the route has exactly three parameters; anything else is a path the web service lacks
  if (parts.length !== 3 || parts.some(p => p === '')) return { code: 404, body: '404: Page Not Found' };
  if (method !== 'POST') return { code: 405, body: '405: Method Not Allowed' };
  const [namespace, pod, container] = parts.map(p => { try { return decodeURIComponent(p); } catch { return p; } }) as [string, string, string];
  const timeouts = url.searchParams.getAll('timeout');
  let timeoutSeconds = 0;
  if (timeouts.length) {
    // the last one counts; a base-10 int64 as Go's ParseInt reads it (an optional sign, digits)
    const last = timeouts[timeouts.length - 1]!;
    if (!/^[+-]?\d+$/.test(last) || !Number.isSafeInteger(Number(last))) return { code: 404, body: 'cannot parse value of timeout parameter' };
    timeoutSeconds = Number(last);
  }
  return { namespace, pod, container, timeoutSeconds };
}

function text(res: ServerResponse, code: number, body: string): void {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
}

export function checkpointRoute(backend: CheckpointBackend): Route {
  return async (req, res, url) => {
    const d = parseCheckpointRequest(req.method ?? 'GET', url);
    if ('code' in d) return text(res, d.code, d.body);
    const pod = backend.pod(d.namespace, d.pod);
    if (!pod) return text(res, 404, 'pod does not exist');
    if (!pod.containerNames.includes(d.container)) return text(res, 404, `container ${d.container} does not exist`);
    const out = await backend.checkpoint({ ...d, containerId: await pod.runningContainerId(d.container) });
    if ('error' in out) return text(res, 500, `checkpointing of ${d.namespace}/${d.pod}/${d.container} failed (${out.error})`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items: [out.location] }));
  };
}
