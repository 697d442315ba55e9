// A standalone agent (no API server) runs only its static pods, on the simulated runtime.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/api/log.ts';
import { startAgent } from '../../src/agent/agent.ts';
import { connectCri } from '../../src/agent/cri/client.ts';
import { criRuntimeProbe } from '../../src/agent/runtime-probe.ts';
import { startRuntimeSim } from '../../src/runtime-sim/server.ts';
import { until } from './support/until.ts';

test('standalone: a static pod manifest runs with no API server; removing it stops the pod', async t => {
  // torn down last made first (node:test runs after hooks in the order they were added): with the
  // runtime stopped before the agent, the agent's stop once never returned and held the suite
  const teardown: Array<() => unknown> = [];
  t.after(async () => { for (const fn of teardown.reverse()) await fn(); });
  const dir = await mkdtemp(join(tmpdir(), 'orch-standalone-'));
  teardown.push(() => rm(dir, { recursive: true, force: true }));
  const image = 'registry.local/app:1.0';
  const sim = await startRuntimeSim({ socket: join(dir, 'cri.sock'), preloadedImages: [image] });
  teardown.push(() => sim.stop());
  const cri = await connectCri(sim.endpoint);
  teardown.push(() => cri.close());
  const manifests = join(dir, 'manifests');
  await mkdir(manifests);
  await writeFile(join(manifests, 'web.yaml'), `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: ${image}\n    command: ["sh", "-c", "trap 'exit 0' TERM; echo standalone; while true; do sleep 1; done"]\n`);
  const agent = await startAgent({
    settings: { address: '127.0.0.1', port: 0, nodeStatusUpdateFrequency: '10s', nodeStatusReportFrequency: '5m', nodeLeaseDurationSeconds: 40, maxPods: 110, failSwapOn: false, staticPodPath: manifests, podLogsDir: join(dir, 'logs'), fileCheckFrequency: '1s' },
    hostnameOverride: 'lonely',
    nodeIPs: ['127.0.0.1'],
    rootDir: join(dir, 'root'),
    certDir: join(dir, 'root', 'pki'),
    runtime: criRuntimeProbe(async () => cri),
    cri,
    log: createLogger('error'),
  });
  teardown.push(() => agent.stop());
  const running = await until('the static pod running', async () => {
    const { containers } = await cri.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } });
    return containers.find((c: any) => c.labels['io.kubernetes.pod.name'] === 'web-lonely');
  });
  assert.equal(running.labels!['io.kubernetes.container.name'], 'web');
  assert.equal(running.labels!['io.kubernetes.pod.namespace'], 'default');
  await rm(join(manifests, 'web.yaml'));
  await until('the static pod removed', async () => (await cri.listPodSandbox({})).items.length === 0);
});
