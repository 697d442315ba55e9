// GET pods/<name>/log: the container's log, fetched from the node agent that runs the pod
// (its /containerLogs endpoint, at the node's address and daemon endpoint port) and streamed
// through as text, so `kubectl logs -f` follows it. The request is checked first, with
// Kubernetes' wording; the agent's own refusals come back as Status errors with its message.

import https from 'node:https';
import { badRequest, internalError, notFound, StatusError } from '../../api/status.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';

type Obj = Record<string, any>;

const passThrough = ['follow', 'previous', 'timestamps', 'tailLines', 'limitBytes', 'sinceSeconds', 'sinceTime'];

function checkOptions(q: URLSearchParams): void {
  for (const [name, min] of [['tailLines', 0], ['limitBytes', 1], ['sinceSeconds', 1]] as const) {
    const v = q.get(name);
    if (v === null) continue;
    const n = Number(v);
    if (!Number.isInteger(n)) throw badRequest(`${name}: Invalid value: "${v}": must be an integer`);
    if (n < min) throw badRequest(`${name}: Invalid value: ${n}: must be ${min === 0 ? 'greater than or equal to 0' : 'greater than 0'}`);
  }
  if (q.get('sinceSeconds') && q.get('sinceTime')) throw badRequest('at most one of `sinceTime` or `sinceSeconds` may be specified');
}

function pickContainer(pod: Obj, asked: string | null): string {
  const name = pod.metadata.name;
  const containers: string[] = (pod.spec?.containers ?? []).map((c: Obj) => c.name);
  const inits: string[] = (pod.spec?.initContainers ?? []).map((c: Obj) => c.name);
  const ephemeral: string[] = (pod.spec?.ephemeralContainers ?? []).map((c: Obj) => c.name);
  if (!asked) {
    if (containers.length === 1) return containers[0]!;
    throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]${inits.length ? ` or one of the init containers: [${inits.join(' ')}]` : ''}`);
  }
  if (![...containers, ...inits, ...ephemeral].includes(asked)) throw badRequest(`container ${asked} is not valid for pod ${name}`);
  return asked;
}

function nodeAddress(node: Obj): string | undefined {
  const addrs: Obj[] = node.status?.addresses ?? [];
  return (addrs.find(a => a.type === 'InternalIP') ?? addrs.find(a => a.type === 'ExternalIP') ?? addrs.find(a => a.type === 'Hostname'))?.address;
}

export async function handlePodLog(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const q = ctx.query;
  checkOptions(q);
  const pod = await deps.store.get(ctx.resource!, ctx.info.namespace, ctx.info.name!) as Obj;
  const container = pickContainer(pod, q.get('container'));
  const nodeName = pod.spec?.nodeName;
  if (!nodeName) throw badRequest(`pod ${pod.metadata.name} does not have a host assigned`);
  const nodes = deps.catalog.lookup('', 'v1', 'nodes');
  const node = await deps.store.get(nodes!, undefined, nodeName).catch(err => {
    if (err instanceof StatusError && err.status.code === 404) throw notFound({ group: '', resource: 'nodes' }, nodeName);
    throw err;
  }) as Obj;
  const host = nodeAddress(node);
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
  if (!host || !port) throw badRequest(`node ${nodeName} has no address or agent port to fetch logs from`);
  if (!deps.nodeClientTls) throw internalError(new Error('no client certificate for node agents'));

  const query = new URLSearchParams();
  for (const k of passThrough) { const v = q.get(k); if (v !== null) query.set(k, v); }
  const path = `/containerLogs/${encodeURIComponent(pod.metadata.namespace)}/${encodeURIComponent(pod.metadata.name)}/${encodeURIComponent(container)}${query.size ? `?${query}` : ''}`;
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;

  await new Promise<void>((resolve, reject) => {
    // the agent's serving certificate is its own unless the cluster signed one: like
    // kube-apiserver without --kubelet-certificate-authority, it is not verified
    const req = https.request(url, { method: 'GET', cert: deps.nodeClientTls!.cert, key: deps.nodeClientTls!.key, rejectUnauthorized: false, signal: ctx.signal }, res => {
      const code = res.statusCode ?? 500;
      if (code !== 200) {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', d => { body += d; });
        res.on('end', () => {
          const message = body.trim() || `the node agent answered ${code}`;
          reject(code === 404 ? new StatusError(404, 'NotFound', message) : code < 500 ? badRequest(message) : new StatusError(500, 'InternalError', message));
        });
        return;
      }
      ctx.res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-cache, private' });
      ctx.res.flushHeaders?.();
      res.on('data', (d: Buffer) => { ctx.res.write(d); });
      res.on('end', () => { ctx.res.end(); resolve(); });
      res.on('error', () => { ctx.res.end(); resolve(); });
    });
    req.on('error', err => {
      if (ctx.signal.aborted) return resolve();
      const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
      const why = e.code === 'ECONNREFUSED' ? `dial tcp ${host}:${port}: connect: connection refused` : e.message;
      reject(new StatusError(500, 'InternalError', `Get "${url}": ${why}`));
    });
    req.end();
  });
}
