// The scale bench's runs side by side, one column per cluster (SQLite with one server, etcd with
// three), each figure with its target and verdict, and what shows that one set of controllers
// and one scheduler did the work.

import type { ScaleBench, ScaleOptions } from './scale-bench.ts';

/** the issue's size, or a tenth of it with --quick */
export function scaleOptions(quick: boolean): ScaleOptions {
  const size = quick ? 0.1 : 1;
  return { nodes: Math.round(1000 * size), deployments: Math.round(300 * size), burst: Math.round(1000 * size), podsPerSecond: 50 };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mib = (x: number) => `${x.toFixed(0)} MiB`;
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** the servers pods were created and bound through, and how often the leases changed hands */
function controllersCell(r: ScaleBench): string {
  const via = (pick: (x: ScaleBench['servers'][number]) => number) => r.servers.filter(x => pick(x) > 0).map(x => x.role).join('+') || 'none';
  const moves = sum(r.leases.map(l => l.transitions));
  const made = via(x => x.podCreates), bound = via(x => x.bindings);
  return `${made === bound ? `pods via ${made}` : `made via ${made}, bound via ${bound}`}; ${moves} lease moves`;
}

export function sayScaleSideBySide(runs: ScaleBench[], o: ScaleOptions, say: (line: string) => void): void {
  const width = 32;
  const row = (name: string, cell: (r: ScaleBench) => string, target = '') =>
    say(`${name.padEnd(30)} ${runs.map(r => cell(r).padEnd(width)).join(' ')} ${target}`.trimEnd());
  const r0 = runs[0]!;
  say(`scale, ${r0.nodes} simulated nodes, ${r0.steady.pods} pods at ${o.podsPerSecond} pods/s, then ${r0.burst.pods} at once`);
  row('', r => r.cluster, 'target');
  row('nodes registered', r => s(r.registerMs));
  row('pod startup p50 / p99', r => `${s(r.steady.p50ms)} / ${s(r.steady.p99ms)} ${met(r.steady.running === r.steady.pods && r.steady.p99ms < 5000)}`, 'p99 < 5 s at 50 pods/s');
  row('  all Running after', r => `${s(r.steady.ms)}${r.steady.running < r.steady.pods ? ` (${r.steady.running} of ${r.steady.pods})` : ''}`);
  const burstDone = (r: ScaleBench) => r.burst.running === r.burst.pods;
  row(`${r0.burst.pods} at once, all Running`, r => `${s(r.burst.allRunningMs)} ${met(burstDone(r) && r.burst.allRunningMs < 15_000)}${burstDone(r) ? '' : ` (${r.burst.running} of ${r.burst.pods})`}`, '< 15 s');
  row('  p50 / p99', r => `${s(r.burst.p50ms)} / ${s(r.burst.p99ms)} ${met(burstDone(r) && r.burst.p99ms < 5000)}`, 'p99 < 5 s');
  const verbs = [...new Set(runs.flatMap(r => Object.keys(r.verbP99s)))].sort();
  for (const verb of verbs) {
    const target = verb === 'LIST' ? 30 : 1;
    row(`API ${verb} p99 <=`, r => {
      const p99 = r.verbP99s[verb];
      return p99 === undefined ? '-' : `${p99 === Infinity ? '+Inf' : `${p99} s`} ${met(p99 < target)}`;
    }, `< ${target} s (all servers' histograms)`);
  }
  row(`list of all pods`, r => `${s(r.listAllPodsMs)} ${met(r.listAllPodsMs < 30_000)}`, '< 30 s');
  row('idle CPU, % of a core', r => r.servers.map(x => `${x.role} ${x.idleCpuPct.toFixed(1)}`).join(', ') + (r.store.idleCpuPct === undefined ? '' : `, etcd ${r.store.idleCpuPct.toFixed(1)}`), '20 s after the list');
  row('RSS of each server', r => r.servers.map(x => `${x.role} ${x.rssMiB.toFixed(0)}`).join(', ') + ' MiB');
  row('RSS servers + etcd + nodes', r => `${sum(r.servers.map(x => x.rssMiB)).toFixed(0)} + ${(r.store.rssMiB ?? 0).toFixed(0)} + ${r.nodesRssMiB.toFixed(0)} = ${mib(sum(r.servers.map(x => x.rssMiB)) + (r.store.rssMiB ?? 0) + r.nodesRssMiB)}`);
  row('database file', r => `${r.store.kind} ${mib(r.store.MiB)}${r.store.inUseMiB === undefined ? '' : `, ${mib(r.store.inUseMiB)} in use`}`);
  if (runs.some(r => r.held)) row('database file, held', r => (r.held ? `${mib(r.held.store.MiB)}${r.held.store.inUseMiB === undefined ? '' : `, ${mib(r.held.store.inUseMiB)} in use`} after ${(r.held.seconds / 60).toFixed(0)} min` : '—'));
  row('controllers, scheduler', controllersCell, 'one server each, no hand-over');
}
