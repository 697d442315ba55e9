// One probe attempt: exec through the runtime, an HTTP GET, a TCP connect or a gRPC health
// check, each bounded by the probe's timeout. Success and failure as the kubelet judges them:
// exit code 0, HTTP status 200–399, a connection made, SERVING.

import { http } from '../../streaming/node-http.ts';
import https from 'node:https';
import net from 'node:net';
import { credentials, makeGenericClientConstructor } from '@grpc/grpc-js';
import type { CriClient } from '../cri/client.ts';
import type { Container } from './types.ts';
import type { CoreV1GRPCAction, CoreV1HTTPGetAction, CoreV1Probe, CoreV1TCPSocketAction } from '../../schema/generated/types.ts';

export interface ProbeResult { ok: boolean; output: string }

export interface ProbeTarget { cri: CriClient; containerId: string; container: Container; podIP: string }

function port(target: ProbeTarget, p: unknown): number {
  if (typeof p === 'number') return p;
  const named = (target.container.ports ?? []).find(x => x.name === p);
  if (named) return named.containerPort;
  const n = Number(p);
  if (Number.isInteger(n)) return n;
  throw new Error(`unable to find port "${p}" in container "${target.container.name}"`);
}

function httpGet(target: ProbeTarget, h: CoreV1HTTPGetAction, timeoutMs: number): Promise<ProbeResult> {
  const scheme = String(h.scheme ?? 'HTTP').toLowerCase();
  const host = h.host || target.podIP;
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port(target, h.port)}${h.path ?? '/'}`;
  const headers: Record<string, string> = { 'user-agent': 'kube-probe/1.36', accept: '*/*' };
  for (const x of h.httpHeaders ?? []) headers[x.name.toLowerCase()] = x.value;
  return new Promise(resolve => {
    const lib = scheme === 'https' ? https : http;
    // Go's HTTP client takes bare-LF header lines (busybox httpd's CGI answers, for one): so must the probe
    const req = lib.get(url, { headers, timeout: timeoutMs, rejectUnauthorized: false, insecureHTTPParser: true }, res => {
      const code = res.statusCode ?? 0;
      let body = '';
      res.on('data', d => { if (body.length < 10_240) body += d; });
      res.on('end', () => resolve(code >= 200 && code < 400 ? { ok: true, output: '' } : { ok: false, output: `HTTP probe failed with statuscode: ${code}` }));
    });
    req.on('timeout', () => { req.destroy(); resolve({ ok: false, output: `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` }); });
    req.on('error', err => resolve({ ok: false, output: `Get "${url}": ${goNetError(err)}` }));
  });
}

function goNetError(err: Error & { code?: string; address?: string; port?: number }): string {
  if (err.code === 'ECONNREFUSED') return `dial tcp ${err.address}:${err.port}: connect: connection refused`;
  return err.message;
}

function tcp(target: ProbeTarget, t: CoreV1TCPSocketAction, timeoutMs: number): Promise<ProbeResult> {
  const host = t.host || target.podIP;
  const p = port(target, t.port);
  return new Promise(resolve => {
    const sock = net.connect({ host, port: p, timeout: timeoutMs });
    sock.on('connect', () => { sock.destroy(); resolve({ ok: true, output: '' }); });
    sock.on('timeout', () => { sock.destroy(); resolve({ ok: false, output: `dial tcp ${host}:${p}: i/o timeout` }); });
    sock.on('error', err => resolve({ ok: false, output: goNetError(err) }));
  });
}

// grpc.health.v1: a request is field 1 (service name), the answer's field 1 is the status enum
const HealthClient = makeGenericClientConstructor({
  Check: {
    path: '/grpc.health.v1.Health/Check', requestStream: false, responseStream: false,
    requestSerialize: (service: string) => { const b = Buffer.from(service); return b.length ? Buffer.concat([Buffer.from([0x0a, b.length]), b]) : Buffer.alloc(0); },
    requestDeserialize: (b: Buffer) => b.toString(),
    responseSerialize: (n: number) => Buffer.from([0x08, n]),
    responseDeserialize: (b: Buffer) => (b[0] === 0x08 ? b[1] ?? 0 : 0),
  },
}, 'Health');

function grpcCheck(target: ProbeTarget, g: CoreV1GRPCAction, timeoutMs: number): Promise<ProbeResult> {
  const addr = `${target.podIP}:${g.port}`;
  const client = new HealthClient(addr, credentials.createInsecure());
  return new Promise(resolve => {
    (client as any).Check(g.service ?? '', { deadline: new Date(Date.now() + timeoutMs) }, (err: Error | null, status: number) => {
      client.close();
      if (err) resolve({ ok: false, output: `timeout: failed to connect service "${addr}" within ${timeoutMs / 1000}s: ${err.message}` });
      else if (status !== 1) resolve({ ok: false, output: `service unhealthy (responded with "${['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'][status] ?? status}")` });
      else resolve({ ok: true, output: '' });
    });
  });
}

export async function checkProbe(probe: CoreV1Probe, target: ProbeTarget): Promise<ProbeResult> {
  const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
  try {
    if (probe.exec) {
      const res = await target.cri.execSync({ containerId: target.containerId, cmd: probe.exec.command ?? [], timeout: probe.timeoutSeconds ?? 1 });
      const output = Buffer.concat([Buffer.from(res.stdout ?? []), Buffer.from(res.stderr ?? [])]).toString();
      return res.exitCode === 0 ? { ok: true, output } : { ok: false, output: output || `command ${JSON.stringify((probe.exec.command ?? []).join(' '))} exited with ${res.exitCode}` };
    }
    if (probe.httpGet) return await httpGet(target, probe.httpGet, timeoutMs);
    if (probe.tcpSocket) return await tcp(target, probe.tcpSocket, timeoutMs);
    if (probe.grpc) return await grpcCheck(target, probe.grpc, timeoutMs);
    return { ok: false, output: 'missing probe handler' };
  } catch (err) {
    return { ok: false, output: (err as Error).message };
  }
}
