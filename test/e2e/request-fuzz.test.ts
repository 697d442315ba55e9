// The request fuzzer in the suite: 10,000 random and mutated requests with a fixed seed, twelve in
// flight over two servers (each server's writes go one at a time, so two go side by side), with
// every admission path, encryption at rest and CBOR on. `npm run fuzz` runs any number with any
// seed, `npm run soak` for minutes.

import { after, before, test } from 'node:test';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { fuzzServer, fuzzServerSetup, type FuzzServerSetup } from '../support/request-fuzzer.ts';

let setup: FuzzServerSetup;
let servers: OrchProcess[] = [];
before(async () => {
  setup = await fuzzServerSetup();
  servers = await Promise.all([0, 1].map(() => startOrch({ args: setup.args })));
});
after(async () => {
  for (const orch of servers) { await orch.stop(); await orch.cleanup(); }
  await setup.cleanup();
});

test('10,000 fuzzed requests: each a prompt 2xx or 4xx Status, nothing written by a rejected one, the servers alive and bounded', async () => {
  const result = await fuzzServer(servers.map(orch => ({ url: orch.url, kubeconfig: orch.kubeconfig, pid: orch.child.pid! })), { runs: 10_000, seed: 17 });
  console.log(`fuzz: ${result.done} cases in ${(result.ms / 1000).toFixed(1)} s, slowest reply ${result.slowestMs.toFixed(0)} ms (p99 ${result.p99Ms.toFixed(0)} ms), server RSS at most ${(result.maxRssBytes / 2 ** 20).toFixed(0)} MiB; replies by status: ${JSON.stringify(result.statuses)}`);
});
