// The agent's /metrics: kubelet_* figures from runtime calls, the runtime's last relist and pod
// statuses, served over its HTTPS endpoint behind the nodes/metrics check.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../../src/api/log.ts';
import type { CriClient } from '../../../../src/agent/cri/client.ts';
import { createAgentMetrics } from '../../../../src/agent/metrics/agent-metrics.ts';
import { instrumentCri, operationType } from '../../../../src/agent/metrics/runtime-operations.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';
import type { RuntimeSnapshot } from '../../../../src/agent/pods/runtime-snapshot.ts';
import { accessGate } from '../../../../src/agent/server/auth/access.ts';
import { healthRegistry } from '../../../../src/agent/server/health.ts';
import { startAgentServer } from '../../../../src/agent/server/https-server.ts';
import { metricsRoute } from '../../../../src/agent/server/metrics-route.ts';
import { servingCert } from '../../../../src/agent/server/serving-cert.ts';
import { parsePrometheusText, valueOf } from '../../../support/prom-text.ts';

test('CRI methods are named as the kubelet names its runtime operations', () => {
  assert.equal(operationType('runPodSandbox'), 'run_podsandbox');
  assert.equal(operationType('podSandboxStatus'), 'podsandbox_status');
  assert.equal(operationType('listPodSandboxStats'), 'list_podsandbox_stats');
  assert.equal(operationType('listContainers'), 'list_containers');
  assert.equal(operationType('updateContainerResources'), 'update_container');
  assert.equal(operationType('imageFsInfo'), 'image_fs_info');
  assert.equal(operationType('portForward'), 'port_forward');
  assert.equal(operationType('version'), 'version');
});

const pod = (uid: string) => ({ metadata: { uid, name: uid, namespace: 'default' }, spec: { containers: [] } }) as unknown as Pod;

test('/metrics on the agent: kubelet figures, nodes/metrics required', async t => {
  let now = 1_000;
  const metrics = createAgentMetrics('node-1', () => now);
  let fail = false;
  const fake = {
    async version() { return { runtimeName: 'fake' }; },
    async startContainer() { if (fail) throw new Error('boom'); return {}; },
    close() {},
  } as unknown as CriClient;
  const cri = instrumentCri(fake, metrics.runtimeOperation);
  await cri.version({});
  await cri.startContainer({ containerId: 'a' });
  fail = true;
  await assert.rejects(cri.startContainer({ containerId: 'b' }), /boom/);
  const snapshot: RuntimeSnapshot = {
    takenAt: now,
    pods: new Map([
      ['u1', { uid: 'u1', name: 'a', namespace: 'default', sandboxes: [{ id: 's1', attempt: 0, state: 'SANDBOX_READY', createdAt: 0 }], containers: [{ id: 'c1', sandboxId: 's1', name: 'c', attempt: 0, state: 'CONTAINER_RUNNING', image: '', imageRef: '', createdAt: 0, restartCount: 0 }, { id: 'c2', sandboxId: 's1', name: 'd', attempt: 0, state: 'CONTAINER_EXITED', image: '', imageRef: '', createdAt: 0, restartCount: 0 }] }],
      ['u2', { uid: 'u2', name: 'b', namespace: 'default', sandboxes: [{ id: 's2', attempt: 0, state: 'SANDBOX_NOTREADY', createdAt: 0 }], containers: [] }],
    ]),
  };
  metrics.countRuntime(() => snapshot);
  metrics.podStatus(pod('u1'), { phase: 'Pending' });
  now += 2_500;
  metrics.podStatus(pod('u1'), { phase: 'Pending' });
  metrics.podStatus(pod('u1'), { phase: 'Running' });
  now += 10_000;
  metrics.podStatus(pod('u1'), { phase: 'Running' });
  metrics.podStatus(pod('u3'), { phase: 'Running' }); // already running when first seen: not a start

  const dir = mkdtempSync(join(tmpdir(), 'metrics-agent-'));
  const serving = await servingCert({ certDir: dir, nodeName: 'node-1', addresses: ['127.0.0.1'] });
  const users: Record<string, string> = { 'prom-token': 'prometheus', 'other-token': 'someone' };
  const gate = accessGate('node-1', async req => {
    const name = users[String(req.headers.authorization ?? '').replace('Bearer ', '')];
    return name ? { user: { name, groups: [] } } : { error: 'no' };
  }, async (user, a) => (user.name === 'prometheus' && a.subresource === 'metrics' ? 'allow' : 'no-opinion'));
  const server = await startAgentServer({ address: '127.0.0.1', port: 0, serving, clientCA: serving.cert, access: gate, health: healthRegistry(), log: silentLogger });
  server.route('/metrics', metricsRoute(metrics.exposition));
  t.after(async () => { await server.close(); rmSync(dir, { recursive: true, force: true }); });
  const get = (path: string, token: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
    request(`https://127.0.0.1:${server.port}${path}`, { ca: serving.cert, servername: 'node-1', rejectUnauthorized: false, headers: { authorization: `Bearer ${token}` } }, res => {
      let body = '';
      res.setEncoding('utf8').on('data', c => { body += c; }).on('end', () => resolve({ status: res.statusCode!, body }));
    }).on('error', reject).end();
  });

  const refused = await get('/metrics', 'other-token');
  assert.deepEqual(refused, { status: 403, body: 'Forbidden (user=someone, verb=get, resource=nodes, subresource(s)=[metrics])\n' });
  assert.equal((await get('/metrics/cadvisor', 'prom-token')).status, 404);
  const ok = await get('/metrics', 'prom-token');
  assert.equal(ok.status, 200);
  const m = parsePrometheusText(ok.body);
  assert.equal(valueOf(m, 'kubelet_node_name', { node: 'node-1' }), 1);
  assert.equal(valueOf(m, 'kubelet_running_pods'), 1);
  assert.equal(valueOf(m, 'kubelet_running_containers', { container_state: 'running' }), 1);
  assert.equal(valueOf(m, 'kubelet_running_containers', { container_state: 'exited' }), 1);
  assert.equal(valueOf(m, 'kubelet_running_containers', { container_state: 'created' }), 0);
  assert.equal(valueOf(m, 'kubelet_runtime_operations_total', { operation_type: 'start_container' }), 2);
  assert.equal(valueOf(m, 'kubelet_runtime_operations_errors_total', { operation_type: 'start_container' }), 1);
  assert.equal(valueOf(m, 'kubelet_runtime_operations_duration_seconds_count', { operation_type: 'version' }), 1);
  assert.equal(valueOf(m, 'kubelet_runtime_operations_duration_seconds_bucket', { operation_type: 'version', le: '0.005' }), 1);
  assert.equal(valueOf(m, 'kubelet_pod_start_duration_seconds_count'), 1);
  assert.equal(valueOf(m, 'kubelet_pod_start_duration_seconds_sum'), 2.5);
  assert.equal(valueOf(m, 'kubelet_pod_start_duration_seconds_bucket', { le: '2' }), 0);
  assert.equal(valueOf(m, 'kubelet_pod_start_duration_seconds_bucket', { le: '3' }), 1);
  assert.ok(m.types.has('process_cpu_seconds_total'));
});
