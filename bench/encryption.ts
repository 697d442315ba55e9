// The encryption bench (`npm run bench -- --only=encryption`, or `node bench/encryption.ts
// [--quick]`): Secret creates and gets per second with encryption at rest off (no configuration,
// the identity baseline) against aescbc, aesgcm, secretbox and KMS v2 (a local plugin,
// test/support/kms-plugin.ts, in this process), one server each, loaded side by side in the same
// time windows by this one process (as bench/audit.ts does): whatever else runs on the machine
// slows all alike, and the servers' shares of it show what each request costs. Each window's
// figure is divided by the identity server's in the same window; the median of those ratios is
// the figure. Beside it, each server's CPU time per request, read from /proc over the measured
// windows: identity's divided by a provider's is the throughput ratio on an otherwise idle
// machine, and it holds steady when the machine is busy with other work.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad, type LoadResult, type TlsClient } from './support/load.ts';
import { cpuSeconds, repoRoot, startChild, type Child } from './support/processes.ts';
import { adminTls, median } from './support/admin-tls.ts';
import { startKmsPlugin, type KmsPlugin } from '../test/support/kms-plugin.ts';

const key = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
const localKeys = (provider: string) => `      - ${provider}:\n          keys:\n            - name: key1\n              secret: ${key()}\n`;
const config = (providers: string) => `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n${providers}`;

function row(name: string, r: LoadResult): string {
  return `${name.padEnd(44)} ${r.perSecond.toFixed(0).padStart(8)} req/s  p50 ${r.p50ms.toFixed(2).padStart(6)} ms  p99 ${r.p99ms.toFixed(2).padStart(6)} ms${r.errors ? `  errors ${r.errors}` : ''}`;
}

/** returns each provider's median create and get ratios to identity, in percent */
export async function runEncryptionBench(opts: { quick?: boolean; say?: (line: string) => void } = {}): Promise<Record<string, { create: number; get: number }>> {
  const say = opts.say ?? ((l: string) => console.log(l));
  const windows = opts.quick ? 3 : 7;
  const windowMs = opts.quick ? 1000 : 2000;
  const dir = await mkdtemp(join(tmpdir(), 'orch-bench-encryption-'));
  const servers: Child[] = [];
  let plugin: KmsPlugin | undefined;
  try {
    const socket = join(dir, 'kms.sock');
    plugin = await startKmsPlugin(socket);
    const providers: Array<[string, string | undefined]> = [
      ['identity', undefined],
      ['aescbc', config(localKeys('aescbc'))],
      ['aesgcm', config(localKeys('aesgcm'))],
      ['secretbox', config(localKeys('secretbox'))],
      ['kms v2', config(`      - kms: { apiVersion: v2, name: benchkms, endpoint: 'unix://${socket}', timeout: 3s }\n`)],
    ];
    const sides: Array<{ name: string; url: string; tls: TlsClient }> = [];
    for (const [name, yaml] of providers) {
      const dataDir = join(dir, name.replace(' ', '-'));
      const extra: string[] = [];
      if (yaml) {
        const file = join(dir, `${name.replace(' ', '-')}.yaml`);
        await writeFile(file, yaml);
        extra.push('--encryption-provider-config', file);
      }
      const s = await startChild(join(repoRoot, 'bin/orch'), ['server', '--data-dir', dataDir, '--port', '0', ...extra]);
      servers.push(s);
      sides.push({ name, url: s.url, tls: await adminTls(dataDir) });
    }
    const path = '/api/v1/namespaces/default/secrets';
    const secret = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, type: 'Opaque', data: { username: Buffer.from('admin').toString('base64'), password: Buffer.from('x'.repeat(64)).toString('base64'), token: Buffer.from('t'.repeat(256)).toString('base64') } });
    // each server its own running count of names: no create repeats a name; gets read what was made
    const made = sides.map(() => 0);
    const loads: Array<['create' | 'get', (side: number) => (i: number) => { method: string; path: string; body?: string }, number]> = [
      ['create', side => () => ({ method: 'POST', path, body: secret(`s${made[side]!++}`) }), 201],
      ['get', side => i => ({ method: 'GET', path: `${path}/s${i % made[side]!}` }), 200],
    ];
    const result: Record<string, { create: number; get: number }> = Object.fromEntries(sides.slice(1).map(s => [s.name, { create: 0, get: 0 }]));
    for (const [what, request, expect] of loads) {
      const ratios: number[][] = sides.map(() => []);
      const all: LoadResult[][] = sides.map(() => []);
      let cpu0: number[] = [];
      for (let w = 0; w <= windows; w++) {
        const got = await Promise.all(sides.map((s, i) => runLoad(s.url, s.tls, { total: Infinity, durationMs: windowMs, concurrency: 8, request: request(i), expect })));
        if (w === 0) { cpu0 = servers.map(s => cpuSeconds(s.child.pid!)); continue; } // warm-up
        got.forEach((r, i) => { all[i]!.push(r); ratios[i]!.push(r.perSecond / got[0]!.perSecond); });
      }
      // the server's CPU time per request: what throughput becomes on a machine of its own, and
      // far steadier than the rates when other work shares the machine
      const cpuPerRequest = servers.map((s, i) => (cpuSeconds(s.child.pid!) - cpu0[i]!) / all[i]!.reduce((n, r) => n + r.requests, 0));
      const pick = (rs: LoadResult[]) => [...rs].sort((x, y) => x.perSecond - y.perSecond)[rs.length >> 1]!;
      const cpuNote = (i: number) => `CPU ${(cpuPerRequest[i]! * 1e6).toFixed(0)} µs/request`;
      say(`${row(`Secret ${what}, encryption off (identity)`, pick(all[0]!))}  ${cpuNote(0)}`);
      for (let i = 1; i < sides.length; i++) {
        const pct = median(ratios[i]!) * 100;
        const cpuPct = cpuPerRequest[0]! / cpuPerRequest[i]! * 100;
        result[sides[i]!.name]![what] = pct;
        say(`${row(`Secret ${what}, ${sides[i]!.name}`, pick(all[i]!))}  ${cpuNote(i)}`);
        say(`${`  ${sides[i]!.name} vs identity, ${what}`.padEnd(44)} ${pct.toFixed(1).padStart(8)} %  (windows ${ratios[i]!.map(r => (r * 100).toFixed(0)).join(' ')}); by CPU per request ${cpuPct.toFixed(1)} %`);
      }
    }
    say(`${'KMS plugin calls'.padEnd(44)} ${plugin.state.encrypts} Encrypt, ${plugin.state.decrypts} Decrypt (one data key seed per server start, reused)`);
    return result;
  } finally {
    for (const s of servers) await s.stop();
    plugin?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runEncryptionBench({ quick: process.argv.includes('--quick') });
}
