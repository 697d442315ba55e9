// One proxied exchange: the client's request (body streamed) sent to the backend, and its answer
// streamed back — or, for an upgrade the backend accepts (101), the two connections joined byte
// for byte, as Kubernetes' UpgradeAwareHandler joins them. HTML pages have their links rewritten
// (html-links.ts). A backend that cannot be reached is a
// 503 "error trying to reach service: ...". Nothing relayed is logged.

import { http } from '../../streaming/node-http.ts';
import https from 'node:https';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Duplex, Readable, Writable } from 'node:stream';
import { serviceUnavailable } from '../../api/status.ts';
import type { RequestContext } from '../context.ts';
import { goDialError } from './target.ts';
import { goTlsError, nodeTlsOptions, type NodeClientTls } from '../node-tls.ts';
import { responseHeaders } from './headers.ts';
import { rewriteHtmlBody } from './html-links.ts';

export interface RelayRequest {
  method: string;
  url: string;
  headers: OutgoingHttpHeaders;
  body: Readable;
  /** host:port as dialled, for error messages */
  dialed: string;
  /** the API server's client certificate (and the CA to verify them with, if any), for node agents */
  clientTls?: NodeClientTls;
  /** the client's connection, when the request is an upgrade */
  upgrade?: { socket: Duplex; head: Buffer };
  rewriteLocation(location: string): string;
}

/** the 101 response line and headers as the backend sent them */
function rawSwitchingResponse(res: IncomingMessage): string {
  const lines = [`HTTP/1.1 ${res.statusCode} ${res.statusMessage ?? 'Switching Protocols'}`];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function join(client: Duplex, backend: Duplex, done: () => void): void {
  let open = 2;
  const closed = () => { client.destroy(); backend.destroy(); if (--open === 0) done(); };
  client.once('close', closed);
  backend.once('close', closed);
  client.on('error', () => client.destroy());
  backend.on('error', () => backend.destroy());
  client.pipe(backend);
  backend.pipe(client);
}

export function relay(ctx: RequestContext, r: RelayRequest): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const secure = r.url.startsWith('https:');
    const options: https.RequestOptions = {
      method: r.method,
      headers: r.headers,
      // each upgraded exchange owns its connection; plain ones share kept-alive connections
      agent: r.upgrade ? false : undefined,
      signal: ctx.signal,
      // pods and services over https are not verified (kube-apiserver's proxy transport does not
      // either); node agents as for logs (node-tls.ts)
      ...(secure ? (r.clientTls ? nodeTlsOptions(r.clientTls) : { rejectUnauthorized: false }) : {}),
    };
    let answered = false;
    const req = (secure ? https : http).request(r.url, options, res => {
      answered = true;
      const code = res.statusCode ?? 502;
      const headers = responseHeaders(res.headers, r.rewriteLocation) as Record<string, string | string[]>;
      // an HTML page (not a redirect) has its links pointed back through the proxy: read whole, then sent
      if (String(res.headers['content-type'] ?? '').split(';')[0]!.trim() === 'text/html' && !res.headers.location && r.method !== 'HEAD') {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          let rewritten: Buffer | undefined;
          try { rewritten = rewriteHtmlBody(body, res.headers['content-encoding'], r.rewriteLocation); } catch { rewritten = undefined; }
          const out = rewritten ?? body;
          ctx.res.writeHead(code, { ...headers, 'content-length': String(out.length) });
          ctx.res.end(out);
          resolve();
        });
        // nothing was sent yet: the client gets a Status, not a truncated page
        res.on('error', err => reject(serviceUnavailable(`error trying to reach service: ${goDialError(err as NodeJS.ErrnoException, r.dialed)}`)));
        return;
      }
      ctx.res.writeHead(code, headers);
      ctx.res.flushHeaders?.();
      res.pipe(ctx.res as unknown as Writable);
      res.on('end', () => resolve());
      res.on('error', () => { ctx.res.end(); resolve(); });
      res.on('aborted', () => { ctx.res.end(); resolve(); });
    });
    req.on('upgrade', (res, backend, head) => {
      answered = true;
      const client = r.upgrade!.socket;
      client.write(rawSwitchingResponse(res));
      if (head.length) client.write(head);
      if (r.upgrade!.head.length) backend.write(r.upgrade!.head);
      join(client, backend, resolve);
    });
    req.on('error', err => {
      if (ctx.signal.aborted) return resolve();
      if (answered) { ctx.res.end(); return resolve(); }
      reject(serviceUnavailable(`error trying to reach service: ${goTlsError(err as NodeJS.ErrnoException, r.dialed.replace(/:\d+$/, '')) ?? goDialError(err as NodeJS.ErrnoException, r.dialed)}`));
    });
    if (r.upgrade) req.end();
    else r.body.pipe(req);
  });
}
