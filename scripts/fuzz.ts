// npm run fuzz -- [--runs N] [--seed S] [--concurrency C] [--servers K]: the request fuzzer
// against K fresh `orch server`s, with a random seed unless one is given; a failure prints the
// seed and the shrunk request to replay it.

import { parseArgs } from 'node:util';
import { startOrch } from '../test/e2e/support/orch-process.ts';
import { fuzzServer, fuzzServerSetup } from '../test/support/request-fuzzer.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '10000' }, seed: { type: 'string' }, concurrency: { type: 'string', default: '12' }, servers: { type: 'string', default: '2' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help) {
  console.log('usage: npm run fuzz -- [--runs N] [--seed S] [--concurrency C] [--servers K]\n  sends N fuzzed requests (default 10000), C at a time (default 12), to K new orch servers (default 2); prints the seed of any failure');
  process.exit(0);
}
const runs = Number(values.runs);
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
console.log(`fuzzing ${runs} requests with seed ${seed}`);
const setup = await fuzzServerSetup();
const servers = await Promise.all(Array.from({ length: Number(values.servers) }, () => startOrch({ args: setup.args })));
let code = 0;
try {
  const started = Date.now();
  const result = await fuzzServer(servers.map(orch => ({ url: orch.url, kubeconfig: orch.kubeconfig, pid: orch.child.pid! })), {
    runs, seed, concurrency: Number(values.concurrency),
    progress: p => console.log(`  ${p.done} requests, ${((Date.now() - started) / 1000).toFixed(0)} s, server RSS ${(p.rssBytes / 2 ** 20).toFixed(0)} MiB`),
  });
  console.log(`passed: ${result.done} requests in ${(result.ms / 1000).toFixed(1)} s, slowest reply ${result.slowestMs.toFixed(0)} ms (p99 ${result.p99Ms.toFixed(0)} ms), server RSS at most ${(result.maxRssBytes / 2 ** 20).toFixed(0)} MiB (seed ${seed}); replies by status: ${JSON.stringify(result.statuses)}`);
} catch (err) {
  const cause = (err as Error).cause as Error | undefined;
  console.error(`FAILED with seed ${seed} (replay: npm run fuzz -- --runs ${runs} --seed ${seed})\n${(err as Error).message}${cause ? `\n\n${cause.message}` : ''}`);
  code = 1;
} finally {
  for (const orch of servers) { await orch.stop(); await orch.cleanup(); }
  await setup.cleanup();
}
process.exit(code);
