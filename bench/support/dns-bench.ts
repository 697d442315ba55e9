// Cluster DNS under load: `orch dns` (a separate process, against the bench's API server, holding
// `services` Services) asked for their names over UDP with `concurrency` queries in flight, beside
// the raw fixed-answer responder (raw-dns.ts) loaded the same way in the same run.

import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { join } from 'node:path';
import * as packet from 'dns-packet';
import { node24, repoRoot } from './processes.ts';

export interface DnsLoad { perSecond: number; p50ms: number; p99ms: number; errors: number }

function startListening(cmd: string, args: string[], pattern: RegExp): Promise<{ port: number; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stderr!.on('data', d => { err += d; });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', d => {
      out += d;
      const m = pattern.exec(out);
      if (m) resolve({ port: Number(m[1]), child, stop: () => new Promise<void>(r => { child.once('exit', () => r()); child.kill('SIGTERM'); }) });
    });
    child.once('exit', code => reject(new Error(`${cmd} exited ${code}: ${err}`)));
  });
}

/** `total` queries to 127.0.0.1:port, `concurrency` outstanding; a query unanswered in 2 s counts as an error */
export function loadDns(port: number, names: string[], total: number, concurrency: number): Promise<DnsLoad> {
  const sock = createSocket('udp4');
  const started = new Map<number, { at: number; timer: NodeJS.Timeout }>();
  const latencies: number[] = [];
  let sent = 0, done = 0, errors = 0, nextId = 0;
  const t0 = performance.now();
  return new Promise(resolve => {
    const finish = () => {
      if (done < total) return;
      sock.close();
      const ms = performance.now() - t0;
      latencies.sort((a, b) => a - b);
      const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
      resolve({ perSecond: (total / ms) * 1000, p50ms: pct(0.5), p99ms: pct(0.99), errors });
    };
    const send = () => {
      if (sent >= total) return;
      const id = nextId = (nextId + 1) & 0xffff;
      const name = names[sent % names.length]!;
      sent++;
      const timer = setTimeout(() => { started.delete(id); errors++; done++; send(); finish(); }, 2000);
      started.set(id, { at: performance.now(), timer });
      sock.send(packet.encode({ type: 'query', id, flags: packet.RECURSION_DESIRED, questions: [{ name, type: 'A', class: 'IN' }] }), port, '127.0.0.1');
    };
    sock.on('message', msg => {
      const id = msg.readUInt16BE(0);
      const s = started.get(id);
      if (!s) return;
      clearTimeout(s.timer);
      started.delete(id);
      if ((msg.readUInt16BE(2) & 0xf) !== 0 || msg.readUInt16BE(6) === 0) errors++;
      latencies.push(performance.now() - s.at);
      done++;
      send();
      finish();
    });
    sock.bind(0, '127.0.0.1', () => { for (let i = 0; i < concurrency; i++) send(); });
  });
}

/** the Service the bench creates as number i (the caller POSTs them) */
export const benchService = (i: number) => JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: `svc-${i}` }, spec: { ports: [{ name: 'http', port: 80 }] } });

export async function runDnsBench(o: { kubeconfig: string; services: number; total: number; concurrency: number }): Promise<{ orch: DnsLoad; raw: DnsLoad }> {
  const names = Array.from({ length: o.services }, (_, i) => `svc-${i}.default.svc.cluster.local`);
  const dns = await startListening(join(repoRoot, 'bin/orch'), ['dns', '--kubeconfig', o.kubeconfig, '--port', '0', '--upstream', '127.0.0.1:9'], /on 127\.0\.0\.1:(\d+)/);
  const raw = await startListening(node24, [join(repoRoot, 'bench/support/raw-dns.ts')], /listening on 127\.0\.0\.1:(\d+)/);
  try {
    // until the informers have every Service: the last one answers
    for (let i = 0; ; i++) {
      const r = await loadDns(dns.port, [names.at(-1)!], 1, 1);
      if (!r.errors) break;
      if (i > 200) throw new Error('orch dns never answered the Services');
      await new Promise(r => setTimeout(r, 50));
    }
    // a warm-up of each, then the measured runs, alternating so that neither gets a quieter machine
    await loadDns(dns.port, names, Math.min(2000, o.total), o.concurrency);
    await loadDns(raw.port, names, Math.min(2000, o.total), o.concurrency);
    const orch = await loadDns(dns.port, names, o.total, o.concurrency);
    const rawLoad = await loadDns(raw.port, names, o.total, o.concurrency);
    return { orch, raw: rawLoad };
  } finally {
    await dns.stop();
    await raw.stop();
  }
}
