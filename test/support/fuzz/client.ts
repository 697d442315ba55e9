// How fuzzed requests reach the server: HTTP/2 streams on one session, HTTP/1.1 on a pool of
// keep-alive sockets, and raw bytes on a TLS socket of their own; each reply, or an error when
// none came within the limit (a streaming reply, such as a watch, is judged by its headers).

import http2 from 'node:http2';
import https from 'node:https';
import tls from 'node:tls';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { FuzzRequest } from './requests.ts';

export interface FuzzTarget {
  url: string;
  kubeconfig: string;
  /** the server's pid, for its resident memory */
  pid: number;
}

export interface FuzzReply { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; ms: number }

/** how long a reply may take (its headers, for a stream) */
export const replyLimitMs = 1000;

interface Credentials { ca: Buffer; cert: Buffer; key: Buffer; host: string; port: number }

function credentials(kubeconfig: string, url: string): Credentials {
  const kc = parseYaml(readFileSync(kubeconfig, 'utf8'));
  const b64 = (s: string) => Buffer.from(s, 'base64');
  const u = new URL(url);
  return { ca: b64(kc.clusters[0].cluster['certificate-authority-data']), cert: b64(kc.users[0].user['client-certificate-data']), key: b64(kc.users[0].user['client-key-data']), host: u.hostname, port: Number(u.port) };
}

/** a request the client library itself refuses to send (a header or method it will not write) */
export class Unsendable extends Error {}

class ReusedSocketReset extends Error {}

export class FuzzClient {
  #creds: Credentials;
  #session?: http2.ClientHttp2Session;
  #agent: https.Agent;
  /** `sockets`: HTTP/1.1 connections at most (as many as requests in flight, so none waits for one) */
  constructor(target: FuzzTarget, sockets = 4) {
    this.#creds = credentials(target.kubeconfig, target.url);
    this.#agent = new https.Agent({ keepAlive: true, maxSockets: sockets });
  }

  #h2(): http2.ClientHttp2Session {
    if (!this.#session || this.#session.closed || this.#session.destroyed) {
      const { ca, cert, key, host, port } = this.#creds;
      this.#session = http2.connect(`https://${host}:${port}`, { ca, cert, key });
      this.#session.on('error', () => { this.#session = undefined; });
    }
    return this.#session;
  }

  /** the reply, or an error when none came within the limit (a stream: its headers) */
  async send(r: FuzzRequest, limitMs = replyLimitMs): Promise<FuzzReply> {
    try {
      return await this.#send(r, limitMs);
    } catch (err) {
      // a kept-alive socket the server closed as idle just as it was reused: the request never
      // reached it (every HTTP client retries this), so it is sent again once
      if (!(err instanceof ReusedSocketReset)) throw err;
      return this.#send(r, limitMs);
    }
  }

  #send(r: FuzzRequest, limitMs: number): Promise<FuzzReply> {
    const started = performance.now();
    const headers = { ...r.headers, ...(r.body ? { 'content-length': String(r.body.length) } : {}) };
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let cancel = () => {};
      let streaming = false;
      const done = (v: FuzzReply | Error) => {
        clearTimeout(timer);
        cancel();
        if (v instanceof Error) reject(v); else resolve(v);
      };
      timer = setTimeout(() => done(new Error(`no reply within ${limitMs} ms`)), limitMs);
      const collect = (status: number, h: Record<string, string | string[] | undefined>, stream: NodeJS.ReadableStream) => {
        // a stream (a watch: every other reply is sized) is judged by its headers
        if (status === 200 && h['content-length'] === undefined) { streaming = true; done({ status, headers: h, body: Buffer.alloc(0), ms: performance.now() - started }); return; }
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => done({ status, headers: h, body: Buffer.concat(chunks), ms: performance.now() - started }));
        stream.on('error', (e: Error) => done(e));
      };
      if (r.transport === 'h2') {
        let stream: http2.ClientHttp2Stream;
        try {
          stream = this.#h2().request({ ':method': r.method, ':path': r.path || '/', ...headers }, { endStream: !r.body });
        } catch (err) { done(new Unsendable((err as Error).message)); return; }
        cancel = () => { if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL); };
        stream.on('response', h => collect(Number(h[':status']), h as Record<string, string>, stream));
        stream.on('error', e => done(e));
        if (r.body) stream.end(r.body);
        return;
      }
      const { ca, cert, key, host, port } = this.#creds;
      let req: ReturnType<typeof https.request>;
      try {
        req = https.request({ host, port, method: r.method, path: r.path || '/', ca, cert, key, agent: this.#agent, headers }, res => collect(res.statusCode!, res.headers, res));
      } catch (err) { done(new Unsendable((err as Error).message)); return; }
      cancel = () => { if (streaming) req.destroy(); };
      req.on('error', e => done((e as NodeJS.ErrnoException).code === 'ECONNRESET' && req.reusedSocket ? new ReusedSocketReset(e.message) : e));
      // a reply to CONNECT comes as 'connect' with the socket handed over: its body read from there
      req.on('connect', (res, socket, head) => {
        const length = Number(res.headers['content-length'] ?? 0);
        const chunks: Buffer[] = [head as Buffer];
        const end = () => { socket.destroy(); done({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - started }); };
        if (head.length >= length) { end(); return; }
        socket.on('data', (c: Buffer) => { chunks.push(c); if (Buffer.concat(chunks).length >= length) end(); });
        socket.on('close', end);
      });
      req.end(r.body);
    });
  }

  /** bytes written straight on a new TLS connection; what came back before it closed or went quiet */
  raw(bytes: string): Promise<{ reply: string; closed: boolean }> {
    const { ca, cert, key, host, port } = this.#creds;
    return new Promise(resolve => {
      let reply = '';
      const socket = tls.connect({ host, port, ca, cert, key, servername: 'localhost', ALPNProtocols: ['http/1.1'] }, () => socket.write(Buffer.from(bytes, 'latin1')));
      const finish = (closed: boolean) => { clearTimeout(timer); socket.destroy(); resolve({ reply, closed }); };
      const timer = setTimeout(() => finish(false), replyLimitMs);
      socket.on('data', d => { reply += d.toString('latin1'); if (/\r\n\r\n/.test(reply) && !/content-length: [1-9]/i.test(reply)) finish(false); else if (/\r\n\r\n[\s\S]*\}$/.test(reply)) finish(false); });
      socket.on('close', () => finish(true));
      socket.on('error', () => finish(true));
    });
  }

  /** the events of a JSON watch (each with its object's resourceVersion), until one at `untilRv` or later came or the stream ended */
  watchEvents(path: string, untilRv: number): Promise<Array<{ type: string; rv: number }>> {
    return new Promise((resolve, reject) => {
      const events: Array<{ type: string; rv: number }> = [];
      const stream = this.#h2().request({ ':method': 'GET', ':path': path, accept: 'application/json' });
      const timer = setTimeout(() => finish(), 3000);
      const finish = () => { clearTimeout(timer); if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL); resolve(events); };
      let text = '';
      stream.on('response', h => { if (h[':status'] !== 200) { clearTimeout(timer); stream.close(); reject(new Error(`watch ${path}: ${h[':status']}`)); } });
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        let nl: number;
        while ((nl = text.indexOf('\n')) >= 0) {
          const e = JSON.parse(text.slice(0, nl)) as { type: string; object: { metadata?: { resourceVersion?: string } } };
          text = text.slice(nl + 1);
          events.push({ type: e.type, rv: Number(e.object.metadata?.resourceVersion) });
          if (events.at(-1)!.rv >= untilRv) { finish(); return; }
        }
      });
      stream.on('end', finish);
      stream.on('error', finish);
    });
  }

  close(): void {
    this.#session?.close();
    this.#agent.destroy();
  }
}
