// A connect subresource's upgraded connection (exec, attach, portforward) relayed as it is to
// the node agent, as kube-apiserver's UpgradeAwareHandler relays to the kubelet: the client's
// request goes to the agent with its upgrade headers and the API server's client certificate;
// the agent's 101 and everything after it come back byte for byte, so whichever protocol the
// client speaks (WebSocket channels, SPDY, SPDY in WebSocket) is spoken with the agent, the one
// place it is terminated. The agent's refusal (not 101) is passed through as it answered it:
// clients print it as "unable to upgrade connection: <its text>".

import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import { badRequest, internalError, StatusError } from '../api/status.ts';
import { goTlsError, nodeTlsOptions, type NodeClientTls } from './node-tls.ts';


// hop-by-hop headers a proxy does not forward, except the two an upgrade is made of
const dropped = new Set(['host', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'proxy-authorization', 'authorization']);

/** the client's upgrade request, as the connect handler hands it over */
export interface UpgradeRequest {
  method: string;
  headers: IncomingHttpHeaders;
  socket: Duplex;
  head: Buffer;
}

function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !dropped.has(k) && !k.startsWith('impersonate-')) out[k] = v;
  return out;
}

function rawHead(code: number, message: string, rawHeaders: string[]): string {
  let head = `HTTP/1.1 ${code} ${message}\r\n`;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) head += `${rawHeaders[i]}: ${rawHeaders[i + 1]}\r\n`;
  return `${head}\r\n`;
}

export function relayUpgrade(up: UpgradeRequest, url: string, tls: NodeClientTls | undefined): Promise<void> {
  if (!tls) throw internalError(new Error('no client certificate for node agents'));
  const target = new URL(url);
  return new Promise<void>((resolve, reject) => {
    const out = https.request(url, { method: up.method, headers: forwardedHeaders(up.headers), ...nodeTlsOptions(tls), agent: false });
    out.on('upgrade', (res, agentSocket, agentHead) => {
      up.socket.write(rawHead(101, res.statusMessage || 'Switching Protocols', res.rawHeaders));
      if (agentHead.length) up.socket.write(agentHead);
      if (up.head.length) agentSocket.write(up.head);
      // toward the client, each chunk is written once the one before has gone: chunks are not
      // merged, so messages the agent sent apart arrive apart (clients that read a message per
      // readable event, like the Python client, depend on it)
      // toward the client, a small chunk is written alone, once what went before has gone: small
      // messages the agent sent apart (an exit status, then the close) arrive apart, which
      // clients that read one message per readable event (the Python client) depend on; bulk
      // data (a chunk as large as a TLS record) flows with the usual backpressure
      agentSocket.on('data', (d: Buffer) => {
        if (d.length < 16384) {
          agentSocket.pause();
          up.socket.write(d, () => agentSocket.resume());
        } else if (!up.socket.write(d)) {
          agentSocket.pause();
          up.socket.once('drain', () => agentSocket.resume());
        }
      });
      agentSocket.once('end', () => up.socket.end());
      up.socket.pipe(agentSocket);
      const end = () => { agentSocket.destroy(); up.socket.destroy(); resolve(); };
      agentSocket.once('close', end);
      up.socket.once('close', end);
      agentSocket.on('error', end);
      up.socket.on('error', end);
    });
    out.on('response', res => {
      // a refusal: status, type and body as the agent gave them
      const pairs: string[] = [];
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
        if (!/^(connection|transfer-encoding|content-length|keep-alive)$/i.test(res.rawHeaders[i]!)) pairs.push(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      }
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        up.socket.end(Buffer.concat([Buffer.from(rawHead(res.statusCode ?? 500, res.statusMessage ?? '', [...pairs, 'Content-Length', String(body.length), 'Connection', 'close'])), body]));
        resolve();
      });
    });
    out.on('error', err => {
      const e = err as NodeJS.ErrnoException;
      const dialed = `${target.hostname.replace(/^\[(.*)\]$/, '$1')}:${target.port}`;
      const why = e.code === 'ECONNREFUSED' ? `dial tcp ${dialed}: connect: connection refused` : goTlsError(e, target.hostname) ?? e.message;
      reject(new StatusError(500, 'InternalError', `error dialing backend: ${why}`));
    });
    out.end();
  });
}

/** a connect subresource reached without an upgrade */
export function upgradeRequired(): StatusError {
  return badRequest('Upgrade request required');
}
