// An orch API server for the APF bench (`node bench/support/apf-server.ts DATA_DIR apf|off [READONLY MUTATING]`),
// in its own process like `orch server`, with its default authorization (Node, RBAC) and, with
// `apf`, the FlowSchemas and priority levels it writes at start, as kube-apiserver's are.
// With `off`, APF is disabled and the max-in-flight limits apply.

import { silentLogger } from '../../src/api/log.ts';
import { startServer } from '../../src/apiserver/start.ts';

const [dataDir, mode, readOnly = '400', mutating = '200'] = process.argv.slice(2);
const limits = { maxRequestsInflight: Number(readOnly), maxMutatingRequestsInflight: Number(mutating) };
const server = await startServer({
  dataDir: dataDir!, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0,
  flowControl: mode === 'off' ? { enablePriorityAndFairness: false, ...limits } : limits,
});
console.log(`listening on ${server.url}`);
process.once('SIGTERM', () => { void server.shutdown().then(() => process.exit(0)); });
