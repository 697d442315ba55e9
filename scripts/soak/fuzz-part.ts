// The request fuzzer as a soak part: two fresh servers with every admission path, encryption and
// CBOR on, fuzzed until the time is up. Failures do not stop it: each is logged with the case's
// seed as it happens, and the part fails at the end if there was any.

import { startOrch } from '../../test/e2e/support/orch-process.ts';
import { caseSeed, fuzzServer, fuzzServerSetup, type FuzzProgress } from '../../test/support/request-fuzzer.ts';
import type { SoakPart } from './part.ts';

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
/** server errors: every 5xx but a proxy's 503 with nowhere to go, which is Kubernetes' answer */
const fiveHundreds = (p: FuzzProgress) => Object.entries(p.statuses).filter(([code]) => Number(code) >= 500).reduce((n, [, count]) => n + count, 0) - p.proxyUnavailable;

export const fuzzPart: SoakPart = {
  name: 'fuzz',
  about: 'the request fuzzer (every verb, media type, subresource and admission path), several requests in flight',
  async start(ctx) {
    const setup = await fuzzServerSetup();
    const servers = await Promise.all([0, 1].map(() => startOrch({ args: setup.args })));
    const started = performance.now();
    let live: FuzzProgress = { done: 0, rssBytes: 0, statuses: {}, failures: 0, proxyUnavailable: 0 };
    let last = { at: started, done: 0 };
    let logged = 0;
    const run = fuzzServer(servers.map(orch => ({ url: orch.url, kubeconfig: orch.kubeconfig, pid: orch.child.pid! })), {
      seed: ctx.seed, until: ctx.until, keepGoing: true, progressMs: 1000,
      progress: p => { live = p; },
    });
    const done = run.then(result => {
      for (const f of result.failureList.slice(logged)) ctx.log(`fuzz: case ${f.index} failed (replay alone: fast-check seed ${caseSeed(ctx.seed, f.index)}):\n${f.message}`);
      const line = `${result.done} requests in ${(result.ms / 1000).toFixed(0)} s (${(result.done / (result.ms / 1000)).toFixed(0)}/s), slowest reply ${result.slowestMs.toFixed(0)} ms, p99 ${result.p99Ms.toFixed(0)} ms, ` +
        `server RSS at most ${mib(result.maxRssBytes)}, 5xx ${fiveHundreds(result)} (and ${result.proxyUnavailable} proxy 503s with nowhere to go); replies by status ${JSON.stringify(result.statuses)}`;
      if (result.failures) throw new Error(`${result.failures} failures; ${line}`);
      return line;
    }).finally(async () => {
      for (const orch of servers) { await orch.stop(); await orch.cleanup(); }
      await setup.cleanup();
    });
    return {
      status() {
        const now = performance.now();
        const rate = (live.done - last.done) / ((now - last.at) / 1000);
        last = { at: now, done: live.done };
        return `${live.done} requests, ${Number.isFinite(rate) ? rate.toFixed(0) : 0}/s now, ${(live.done / ((now - started) / 1000)).toFixed(0)}/s overall, server RSS ${mib(live.rssBytes)}, 5xx ${fiveHundreds(live)}, failures ${live.failures}`;
      },
      done,
    };
  },
};
