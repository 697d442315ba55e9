// The audit bench (`npm run bench -- --only=audit`, or `node bench/audit.ts [--quick]`):
// requests per second with audit logging on (every request at Metadata, to a file) against the
// same requests with it off, on two servers loaded side by side in the same time windows by one
// client process (as bench/authz.ts does: machine noise then falls on both alike). Two loads:
// GETs of one configmap, and creates of configmaps. The median of the windows' ratios is the
// figure. Target: audit on ≥ 90 % of off.

import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad, type LoadResult, type TlsClient } from './support/load.ts';
import { repoRoot, startChild, type Child } from './support/processes.ts';
import { adminTls, median } from './support/admin-tls.ts';



function row(name: string, r: LoadResult): string {
  return `${name.padEnd(44)} ${r.perSecond.toFixed(0).padStart(8)} req/s  p50 ${r.p50ms.toFixed(2).padStart(6)} ms  p99 ${r.p99ms.toFixed(2).padStart(6)} ms${r.errors ? `  errors ${r.errors}` : ''}`;
}

/** returns the median ratio on/off of the GET load, in percent */
export async function runAuditBench(opts: { quick?: boolean; say?: (line: string) => void } = {}): Promise<number> {
  const say = opts.say ?? ((l: string) => console.log(l));
  const windows = opts.quick ? 5 : 11;
  const windowMs = opts.quick ? 700 : 1500;
  const dir = await mkdtemp(join(tmpdir(), 'orch-bench-audit-'));
  const servers: Child[] = [];
  try {
    const policy = join(dir, 'policy.yaml');
    await writeFile(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const logPath = join(dir, 'audit.log');
    const sides: Array<{ name: string; url: string; tls: TlsClient }> = [];
    for (const [name, extra] of [['off', []], ['on', [`--audit-policy-file=${policy}`, `--audit-log-path=${logPath}`]]] as const) {
      const dataDir = join(dir, name);
      const s = await startChild(join(repoRoot, 'bin/orch'), ['server', '--data-dir', dataDir, '--port', '0', ...extra]);
      servers.push(s);
      sides.push({ name, url: s.url, tls: await adminTls(dataDir) });
    }
    const cm = '/api/v1/namespaces/default/configmaps';
    const body = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });
    for (const s of sides) await runLoad(s.url, s.tls, { total: 1, concurrency: 1, request: () => ({ method: 'POST', path: cm, body: body('x') }), expect: 201 });
    const loads: Array<[string, (side: number) => (i: number) => { method: string; path: string; body?: string }, number]> = [
      ['GET configmap', () => () => ({ method: 'GET', path: `${cm}/x` }), 200],
      // each side its own running count of names: no create repeats a name
      ['create configmap', () => { let n = 0; return () => ({ method: 'POST', path: cm, body: body(`c${n++}`) }); }, 201],
    ];
    let getPct = 0;
    for (const [what, request, expect] of loads) {
      const makers = sides.map((_, i) => request(i));
      const ratios: number[] = [];
      const all: [LoadResult[], LoadResult[]] = [[], []];
      for (let w = 0; w <= windows; w++) {
        const [off, on] = await Promise.all(sides.map((s, i) => runLoad(s.url, s.tls, { total: Infinity, durationMs: windowMs, concurrency: 16, request: makers[i]!, expect })));
        if (w === 0) continue; // warm-up
        all[0].push(off!); all[1].push(on!);
        ratios.push(on!.perSecond / off!.perSecond);
      }
      const pick = (rs: LoadResult[]) => [...rs].sort((x, y) => x.perSecond - y.perSecond)[rs.length >> 1]!;
      say(row(`${what}, audit off (median window)`, pick(all[0])));
      say(row(`${what}, audit on, Metadata for all`, pick(all[1])));
      const pct = median(ratios) * 100;
      say(`${`throughput with audit on vs off, ${what}`.padEnd(44)} ${pct.toFixed(1)} %  (windows ${ratios.map(r => (r * 100).toFixed(0)).join(' ')}; target ≥ 90 %: ${pct >= 90 ? 'met' : 'NOT met'})`);
      if (what.startsWith('GET')) getPct = pct;
    }
    say(`${'audit log written'.padEnd(44)} ${((await stat(logPath)).size / 1024 / 1024).toFixed(1)} MiB`);
    return getPct;
  } finally {
    for (const s of servers) await s.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runAuditBench({ quick: process.argv.includes('--quick') });
}
