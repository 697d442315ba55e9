// The Python client (Debian's python3-kubernetes) reads what orch writes: its generated models
// raise on a response that lacks a field Go always writes (a new ReplicationController's
// status.replicas, a DaemonSet's counters, a Node's nodeInfo.kubeProxyVersion, a Service's
// status.loadBalancer, an Event's reportingComponent), and its watch
// helper resumes from a list's resourceVersion.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startOrch } from './support/orch-process.ts';
import { skipForMissing } from '../support/requires.ts';

const python = '/usr/bin/python3';
const run = promisify(execFile);

async function pythonClientMissing(): Promise<string | undefined> {
  try {
    await run(python, ['-c', 'import kubernetes']);
    return undefined;
  } catch {
    return `${python} with the kubernetes module not installed (apt-get install python3-kubernetes)`;
  }
}

test('the Python client reads new RC, DaemonSet, Deployment and Node through its typed API and watches every event', async t => {
  const missing = await pythonClientMissing();
  if (missing) return t.skip(skipForMissing(missing));
  // objects as the API server writes them, before a DaemonSet controller counts the test's node
  const orch = await startOrch({ args: ['--controllers=*,-daemonset'] });
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const { stdout } = await run(python, [join(import.meta.dirname, 'python/read_typed.py'), orch.kubeconfig], { timeout: 60_000 });
  const out = JSON.parse(stdout.trim().split('\n').pop()!) as { read: Record<string, unknown>; events: Array<[string, string]> };
  assert.deepEqual(out.read, { rc: 0, ds: 0, dep: 0, node: '', svc: { ingress: null }, event: ['', null], lists: [1, 1, 1] });
  assert.deepEqual(out.events, [['ADDED', 'w0'], ['ADDED', 'w1'], ['ADDED', 'w2'], ['ADDED', 'w3'], ['ADDED', 'w4'], ['DELETED', 'w0']]);
});
