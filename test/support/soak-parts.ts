// The kill -9 cycles and the watch-consistency check as parts of `npm run soak`: each runs until
// the soak's end, says how it is doing when asked, and ends with a summary or fails with the
// first violations (scripts/soak/part.ts says what a part is).

import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient } from '../../src/client/rest.ts';
import type { Violation } from '../../src/cli/check-watch/history.ts';
import { checkedResources } from '../../src/cli/check-watch/resources.ts';
import { runWatchCheck, type WatchCheckProgress } from '../../src/cli/check-watch/session.ts';
import { startOrch } from '../e2e/support/orch-process.ts';
import { etcdBinary } from './etcd.ts';
import { runKillCycles, type CycleResult } from './kill-cycles.ts';
import type { SoakPart as Part } from '../../scripts/soak/part.ts';


const firstViolations = (vs: Violation[]) => vs.slice(0, 10).map(v => `\n  - ${v.watcher === undefined ? '' : `watcher ${v.watcher}: `}${v.message}`).join('');

/** kill -9 cycles on one backend until the soak ends (on etcd, etcd itself is killed every third cycle) */
export function killCyclesPart(backend: 'sqlite' | 'etcd'): Part {
  return {
    name: `kill-${backend}`,
    about: `kill -9 of orch server under concurrent writers on ${backend}${backend === 'etcd' ? ' (two servers; etcd killed too every third cycle)' : ''}, no acknowledged write lost, watches whole across restarts`,
    async start(ctx) {
      if (backend === 'etcd' && !etcdBinary()) return { status: () => 'skipped', done: Promise.resolve('skipped: etcd is not installed') };
      let last = 'starting';
      const done = runKillCycles({
        backend, cycles: Infinity, until: ctx.until, servers: 2, writers: 16, watchers: 4,
        beforeKillMs: [500, 5000], afterRestartMs: 1000, etcdKillCycles: Array.from({ length: 10_000 }, (_, i) => i * 3 + 2),
        onProgress: line => { last = line; if (/VIOLATIONS/.test(line)) ctx.log(line); },
      }).then(report => {
        const line = `${report.cycles.length} cycles, ${sum(report.cycles, 'acknowledged')} writes acknowledged, ${sum(report.cycles, 'events')} events watched`;
        if (report.violations.length) throw new Error(`${report.violations.length} violations in ${line}:${firstViolations(report.violations)}`);
        return line;
      });
      return { status: () => last, done };
    },
  };
}

const sum = (cs: CycleResult[], k: 'acknowledged' | 'events') => cs.reduce((n, c) => n + c[k], 0);

/** `orch check watch`'s run against one SQLite server for the whole soak: 8 writers, 8 watchers */
export const watchCheckPart: Part = {
  name: 'watch',
  about: 'the watch-consistency check (orch check watch) under 8 writers and 8 watchers for the whole soak',
  async start(ctx) {
    const orch = await startOrch();
    const client = createClient(await loadKubeconfig(orch.kubeconfig));
    let live: WatchCheckProgress = { acknowledged: 0, uncertain: 0, events: 0, relists: 0 };
    const done = runWatchCheck(client, {
      resource: checkedResources.configmaps!, writers: 8, watchers: 8, durationMs: Math.max(1000, ctx.until - performance.now()),
      onProgress: p => { live = p; },
    }).then(r => {
      const line = `${r.acknowledged} writes acknowledged, ${r.events} events over ${r.watchers} watchers, ${r.relists} re-lists, final list ${r.finalObjects} objects`;
      if (r.violations.length) throw new Error(`${r.violations.length} violations; ${line}:${firstViolations(r.violations)}`);
      return line;
    }).finally(async () => { client.close(); await orch.stop(); await orch.cleanup(); });
    return { status: () => `${live.acknowledged} writes acknowledged, ${live.events} events seen, ${live.relists} re-lists`, done };
  },
};
