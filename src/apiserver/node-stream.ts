// A subresource's bytes fetched from a node agent (pods/log) and passed to the client as they
// arrive, with the API server's own client certificate. The agent's refusals come back as
// Status errors carrying its message.

import https from 'node:https';
import { badRequest, internalError, StatusError } from '../api/status.ts';
import type { RequestContext } from './context.ts';
import { goTlsError, nodeTlsOptions, type NodeClientTls } from './node-tls.ts';

export type { NodeClientTls };

export async function streamFromNode(ctx: RequestContext, url: string, contentType: string, tls: NodeClientTls | undefined): Promise<void> {
  if (!tls) throw internalError(new Error('no client certificate for node agents'));
  const target = new URL(url);
  const dialed = `${target.hostname.replace(/^\[(.*)\]$/, '$1')}:${target.port}`;
  await new Promise<void>((resolve, reject) => {
    const req = https.request(url, { method: 'GET', ...nodeTlsOptions(tls), signal: ctx.signal }, res => {
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
      ctx.res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache, private' });
      ctx.res.flushHeaders?.();
      res.on('data', (d: Buffer) => { ctx.res.write(d); });
      res.on('end', () => { ctx.res.end(); resolve(); });
      res.on('error', () => { ctx.res.end(); resolve(); });
    });
    req.on('error', err => {
      if (ctx.signal.aborted) return resolve();
      const e = err as NodeJS.ErrnoException;
      const why = e.code === 'ECONNREFUSED' ? `dial tcp ${dialed}: connect: connection refused` : goTlsError(e, target.hostname) ?? e.message;
      reject(new StatusError(500, 'InternalError', `Get "${url}": ${why}`));
    });
    req.end();
  });
}
