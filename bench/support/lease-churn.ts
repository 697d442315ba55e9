// The churn that grows k3s' SQLite files: node leases renewed every second. 100 Leases are
// renewed once a second each (100 writes/s) against `orch server` on SQLite with its default
// compaction (every 5 minutes, 5 minutes of history kept), while the sizes of the database and
// its WAL are sampled. The bound is what the files may reach in steady state: history of one
// compaction interval plus the retention, at 100 writes/s, and the live objects.

import type http2 from 'node:http2';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type TlsClient } from './load.ts';

export interface LeaseChurnSample { atS: number; databaseMiB: number; walMiB: number; renewals: number }
export interface LeaseChurnResult { samples: LeaseChurnSample[]; renewals: number; errors: number; maxTotalMiB: number; finalTotalMiB: number; seconds: number }

const size = (path: string) => stat(path).then(s => s.size / 1048576, () => 0);

function send(session: http2.ClientHttp2Session, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':method': method, ':path': path, 'content-type': 'application/json', accept: 'application/json' });
    let text = '';
    let status = 0;
    req.setEncoding('utf8');
    req.on('response', h => { status = Number(h[':status']); });
    req.on('data', (c: string) => { text += c; });
    req.on('end', () => resolve({ status, body: text }));
    req.on('error', reject);
    req.end(body);
  });
}

const lease = (name: string, rv?: string) => JSON.stringify({
  apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
  metadata: { name, namespace: 'kube-node-lease', ...(rv ? { resourceVersion: rv } : {}) },
  spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: new Date().toISOString().replace('Z', '000Z') },
});

export async function runLeaseChurn(url: string, tls: TlsClient, dataDir: string, opts: { leases: number; seconds: number; sampleEveryS: number; onSample?: (s: LeaseChurnSample) => void }): Promise<LeaseChurnResult> {
  const session = connect(url, tls);
  const base = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
  const rvs = new Map<string, string>();
  let renewals = 0, errors = 0;
  try {
    for (let i = 0; i < opts.leases; i++) {
      const name = `churn-${i}`;
      const r = await send(session, 'POST', base, lease(name));
      if (r.status !== 201) throw new Error(`creating lease ${name}: ${r.status} ${r.body}`);
      rvs.set(name, JSON.parse(r.body).metadata.resourceVersion);
    }
    const samples: LeaseChurnSample[] = [];
    const t0 = performance.now();
    const sample = async () => {
      const s = { atS: Math.round((performance.now() - t0) / 1000), databaseMiB: await size(join(dataDir, 'orch.db')), walMiB: await size(join(dataDir, 'orch.db-wal')), renewals };
      samples.push(s);
      opts.onSample?.(s);
    };
    await sample();
    let nextSample = opts.sampleEveryS;
    for (let second = 1; second <= opts.seconds; second++) {
      // each lease renewed once this second, as its holder would, all at once
      await Promise.all([...rvs].map(async ([name, rv]) => {
        const r = await send(session, 'PUT', `${base}/${name}`, lease(name, rv));
        if (r.status === 200) { rvs.set(name, JSON.parse(r.body).metadata.resourceVersion); renewals++; } else errors++;
      }));
      const wait = t0 + second * 1000 - performance.now();
      if (wait > 0) await new Promise(r => setTimeout(r, wait));
      if (second >= nextSample) { await sample(); nextSample += opts.sampleEveryS; }
    }
    const total = (s: LeaseChurnSample) => s.databaseMiB + s.walMiB;
    return { samples, renewals, errors, maxTotalMiB: Math.max(...samples.map(total)), finalTotalMiB: total(samples.at(-1)!), seconds: (performance.now() - t0) / 1000 };
  } finally {
    session.close();
  }
}
