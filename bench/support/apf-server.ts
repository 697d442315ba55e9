// An orch API server for the APF bench (`node bench/support/apf-server.ts DATA_DIR apf|off [READONLY MUTATING]`),
// in its own process like `orch server`, with a classifier standing in for the bootstrap
// FlowSchemas: Lease writes are the nodes' flow at node-high, health checks are exempt, the rest
// is global-default with one flow per user; the levels have Kubernetes' default shares.
// With `off`, APF is disabled and the max-in-flight limits (400 + 200) apply.

import { silentLogger } from '../../src/api/log.ts';
import { startServer } from '../../src/apiserver/start.ts';
import type { FlowClassifier, PriorityLevel } from '../../src/apiserver/flowcontrol/types.ts';

const queued = (shares: number, lendablePercent: number, queues: number, handSize: number): Omit<PriorityLevel, 'name' | 'uid'> =>
  ({ exempt: false, nominalConcurrencyShares: shares, lendablePercent, queuing: { queues, handSize, queueLengthLimit: 50 } });
const specs: Record<string, Omit<PriorityLevel, 'name' | 'uid'>> = {
  exempt: { exempt: true, nominalConcurrencyShares: 0, lendablePercent: 0 },
  system: queued(30, 33, 64, 6),
  'leader-election': queued(10, 0, 16, 4),
  'node-high': queued(40, 25, 64, 6),
  'workload-high': queued(40, 50, 128, 6),
  'workload-low': queued(100, 90, 128, 6),
  'global-default': queued(20, 50, 128, 6),
  'catch-all': queued(5, 0, 64, 6),
};
const levels: PriorityLevel[] = Object.entries(specs).map(([name, s]) => ({ name, uid: `bench-${name}`, ...s }));
const byName = new Map(levels.map(l => [l.name, l]));

const classifier: FlowClassifier = {
  classify(user, info) {
    const [fs, pl, distinguisher] = info.resource === 'leases' ? ['system-nodes', 'node-high', '']
      : !info.isResourceRequest && /^\/(healthz|livez|readyz)/.test(info.path) ? ['probes', 'exempt', '']
      : ['global-default', 'global-default', user.name];
    return { flowSchema: { name: fs, uid: `bench-fs-${fs}` }, priorityLevel: byName.get(pl)!, distinguisher };
  },
  priorityLevels: () => levels,
  onChange() {},
};

const [dataDir, mode, readOnly = '400', mutating = '200'] = process.argv.slice(2);
const limits = { maxRequestsInflight: Number(readOnly), maxMutatingRequestsInflight: Number(mutating) };
const server = await startServer({
  dataDir: dataDir!, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0,
  flowControl: mode === 'off' ? { enablePriorityAndFairness: false, ...limits } : { classifier, ...limits },
});
console.log(`listening on ${server.url}`);
process.once('SIGTERM', () => { void server.shutdown().then(() => process.exit(0)); });
