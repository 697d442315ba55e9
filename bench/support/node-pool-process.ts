// A node pool in a process of its own, so that the nodes' work does not slow the benchmark's
// client: `node node-pool-process.ts KUBECONFIG NODES IMAGE` prints "listening on pool" once
// every agent has started, and stops on SIGTERM.

import { startNodePool } from '../../test/support/node-pool.ts';

const [kubeconfig, nodes, image] = process.argv.slice(2);
const pool = await startNodePool({ kubeconfig: kubeconfig!, nodes: Number(nodes), images: [image!] });
console.log('listening on pool');
process.once('SIGTERM', () => { void pool.stop().then(() => process.exit(0)); });
