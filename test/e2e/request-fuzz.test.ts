// The request fuzzer in the suite: a few thousand random and mutated requests with a fixed seed
// against a real server (`npm run fuzz` runs any number with any seed).

import { after, before, test } from 'node:test';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { fuzzServer, quietServerArgs } from '../support/request-fuzzer.ts';

let orch: OrchProcess;
before(async () => { orch = await startOrch({ args: quietServerArgs }); });
after(async () => { await orch.stop(); await orch.cleanup(); });

test('3,000 fuzzed requests: each a prompt 2xx or 4xx Status, nothing written by a rejected one, the server alive and bounded', async () => {
  const result = await fuzzServer({ url: orch.url, kubeconfig: orch.kubeconfig, pid: orch.child.pid! }, { runs: 3000, seed: 17 });
  console.log(`fuzz: ${result.runs} cases in ${(result.ms / 1000).toFixed(1)} s, server RSS at most ${(result.maxRssBytes / 2 ** 20).toFixed(0)} MiB; replies by status: ${JSON.stringify(result.statuses)}`);
});
