// The service, account, disruption and autoscaling controllers as kubectl users meet them, with
// real kubectl (newest and oldest present) against `orch server` and a simulated node: a new
// namespace's default ServiceAccount and kube-root-ca.crt, `kubectl expose` and the endpoints
// it leads to, a PodDisruptionBudget's columns, and autoscalers with and without metrics in
// `kubectl describe hpa`.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startNodePool, type NodePool } from '../support/node-pool.ts';
import { requires } from '../support/requires.ts';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { repoRoot, startOrch, type OrchProcess } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';

const image = 'registry.local/app:1.0';

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

/** a Deployment (no pods of its own here: the server runs no Deployment or ReplicaSet controller) and plain pods its selector selects */
function workload(ns: string): string {
  const pod = (i: number) => `---
apiVersion: v1
kind: Pod
metadata:
  name: web-${i}
  namespace: ${ns}
  labels: {app: web}
  annotations: {runtime-sim.orch.io/cpu-millicores: "300"}
spec:
  containers:
  - name: app
    image: ${image}
    imagePullPolicy: IfNotPresent
    command: [sh, -c, 'trap "exit 0" TERM; while true; do sleep 1; done']
    ports: [{name: http, containerPort: 8080}]
    resources: {requests: {cpu: 100m}}
`;
  const deployment = (name: string) => `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${ns}, labels: {app: ${name}}}
spec:
  replicas: 3
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: app, image: ${image}, resources: {requests: {cpu: 100m}}}]}
`;
  return deployment('web') + deployment('idle') + [0, 1, 2].map(pod).join('');
}

const versions = kubectls();
if (versions.length === 0) test('service controllers with kubectl', requires('no kubectl binary found'), () => {});

// each version's server and node side by side, their waits (the autoscaler's syncs above all)
// overlapping; within a version the cases run in order
describe('service controllers with each kubectl version', { concurrency: true }, () => {
  for (const { label, path: bin } of versions) {
    describe(`service controllers with kubectl ${label}`, { concurrency: false }, () => {
      let orch: OrchProcess;
      let pool: NodePool;
      const ns = `svc-${label.replace('.', '-')}`;
      const k = (args: string[], input?: string) => kubectl(bin, orch.kubeconfig, args, input);
      before(async () => {
        // the Deployments here only give the autoscaler and the budget a scale to read; their pods
        // are the plain ones below, so no controller makes pods of its own for them
        orch = await startOrch({ args: ['--horizontal-pod-autoscaler-sync-period', '1s', '--controllers=*,-deployment,-replicaset'] });
        pool = await startNodePool({ kubeconfig: orch.kubeconfig, nodes: 1, images: [image] });
      });
      after(async () => { await pool.stop(); await orch.stop(); await orch.cleanup(); });

      test('a new namespace has its default ServiceAccount and kube-root-ca.crt', async () => {
        ok(await k(['create', 'namespace', ns]));
        const out = await until('sa and cm listed', async () => {
          const r = ok(await k(['get', 'sa,cm', '-n', ns]));
          return /serviceaccount\/default/.test(r) && /configmap\/kube-root-ca\.crt/.test(r) && r;
        });
        assert.match(out, /^NAME\s+SECRETS\s+AGE\nserviceaccount\/default\s+0\s+\d+s$/m);
        assert.match(out, /^NAME\s+DATA\s+AGE\nconfigmap\/kube-root-ca\.crt\s+1\s+\d+s$/m);
        const ca = ok(await k(['get', 'cm', 'kube-root-ca.crt', '-n', ns, '-o', 'jsonpath={.data.ca\\.crt}']));
        assert.match(ca, /^-----BEGIN CERTIFICATE-----/);
        // deleted, it comes back
        ok(await k(['delete', 'sa', 'default', '-n', ns]));
        await until('default SA again', async () => (await k(['get', 'sa', 'default', '-n', ns])).code === 0);
      });

      test('kubectl expose: EndpointSlices and Endpoints list the ready pods on the named port', async () => {
        ok(await k(['apply', '-f', '-'], workload(ns)));
        const ips = await until('three pods Running and Ready', async () => {
          const out = ok(await k(['get', 'pods', '-n', ns, '-l', 'app=web', '-o', 'jsonpath={range .items[*]}{.status.podIP} {.status.conditions[?(@.type=="Ready")].status}{"\\n"}{end}']));
          const rows = out.trim().split('\n').map(l => l.split(' '));
          return rows.length === 3 && rows.every(r => r[0] && r[1] === 'True') && rows.map(r => r[0]!).sort();
        }, 60_000);
        assert.match(ok(await k(['expose', 'deployment', 'web', '-n', ns, '--port=80', '--target-port=http'])), /service\/web exposed/);
        const out = await until('slice and endpoints with three addresses', async () => {
          const r = await k(['get', 'endpointslices,endpoints', '-n', ns, '-l', 'app=web']);
          return r.code === 0 && ips.every(ip => r.stdout.split(ip).length === 3) && r;
        });
        const text = out.stdout;
        assert.match(out.stderr, /Warning: v1 Endpoints is deprecated in v1\.33\+; use discovery\.k8s\.io\/v1 EndpointSlice/);
        assert.match(text, /^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE$/m);
        // a slice keeps its endpoints in no particular order (as Kubernetes' controller); Endpoints sorts them
        const sliceRow = /^endpointslice\.discovery\.k8s\.io\/web-[a-z0-9]{5}\s+IPv4\s+8080\s+(\S+)\s+\d+s$/m.exec(text);
        assert.ok(sliceRow, text);
        assert.deepEqual(sliceRow[1]!.split(',').sort(), ips);
        assert.match(text, new RegExp(`^endpoints/web\\s+${ips.map(ip => `${ip}:8080`).join(',').replace(/\./g, '\\.')}\\s+\\d+s$`, 'm'));
        // a pod leaves: both follow
        ok(await k(['delete', 'pod', 'web-2', '-n', ns, '--grace-period=1']));
        await until('two endpoints', async () => {
          const r = ok(await k(['get', 'endpoints', 'web', '-n', ns, '-o', 'jsonpath={.subsets[*].addresses[*].ip}']));
          return r.trim().split(' ').length === 2;
        });
        const slice = ok(await k(['get', 'endpointslices', '-n', ns, '-l', 'kubernetes.io/service-name=web', '-o', 'jsonpath={.items[0].metadata.labels.endpointslice\\.kubernetes\\.io/managed-by} {.items[0].metadata.ownerReferences[0].kind}']));
        assert.equal(slice, 'endpointslice-controller.k8s.io Service');
        // the API server keeps the kubernetes service's own
        assert.match(ok(await k(['get', 'endpoints', 'kubernetes', '-n', 'default'])), /kubernetes\s+127\.0\.0\.1:\d+/);
      });

      test('a PodDisruptionBudget\'s columns in kubectl get pdb', async () => {
        ok(await k(['create', 'poddisruptionbudget', 'web', '-n', ns, '--selector=app=web', '--min-available=1']));
        const out = await until('disruptions allowed', async () => {
          const r = ok(await k(['get', 'pdb', 'web', '-n', ns]));
          return /web\s+1\s+N\/A\s+1\s+\d+s/.test(r) && r;
        });
        assert.match(out, /^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE$/m);
        const status = ok(await k(['get', 'pdb', 'web', '-n', ns, '-o', 'jsonpath={.status.currentHealthy} {.status.desiredHealthy} {.status.expectedPods} {.status.conditions[0].reason}']));
        assert.equal(status, '2 1 2 SufficientPods');
      });

      test('kubectl describe hpa: conditions with metrics, and without', async () => {
        ok(await k(['autoscale', 'deployment', 'web', '-n', ns, '--min=1', '--max=5', '--cpu-percent=50']));
        ok(await k(['autoscale', 'deployment', 'idle', '-n', ns, '--min=1', '--max=3', '--cpu-percent=50']));
        // two pods using 300m of a 100m request each: far over 50%, so up to the maximum
        const web = await until('web rescaled', async () => {
          const r = ok(await k(['describe', 'hpa', 'web', '-n', ns]));
          return /SucceededRescale/.test(r) && r;
        }, 90_000);
        assert.match(web, /AbleToScale\s+True\s+SucceededRescale\s+the HPA controller was able to update the target scale to 5/);
        assert.match(web, /ScalingActive\s+True\s+ValidMetricFound\s+the HPA was able to successfully calculate a replica count from cpu resource utilization \(percentage of request\)/);
        assert.match(web, /ScalingLimited\s+True\s+TooManyReplicas\s+the desired replica count is more than the maximum replica count/);
        assert.match(web, /SuccessfulRescale\s+.*New size: 5; reason: cpu resource utilization \(percentage of request\) above target/);
        assert.equal(ok(await k(['get', 'deployment', 'web', '-n', ns, '-o', 'jsonpath={.spec.replicas}'])), '5');
        // the next sync reports the new size (the sim's CPU figure is a rate, so about 300%)
        await until('five replicas reported', async () => /web\s+Deployment\/web\s+(cpu: )?(29\d|30\d)%\/50%\s+1\s+5\s+5\s+\d+s/.test(ok(await k(['get', 'hpa', 'web', '-n', ns]))));

        const idle = await until('idle conditions', async () => {
          const r = ok(await k(['describe', 'hpa', 'idle', '-n', ns]));
          return /ScalingActive/.test(r) && r;
        });
        assert.match(idle, /AbleToScale\s+True\s+SucceededGetScale\s+the HPA controller was able to get the target's current scale/);
        assert.match(idle, /ScalingActive\s+False\s+FailedGetResourceMetric\s+the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API/);
        assert.match(ok(await k(['get', 'hpa', 'idle', '-n', ns])), /idle\s+Deployment\/idle\s+(cpu: )?<unknown>\/50%\s+1\s+3\s+3\s+\d+s/);
      });
    });
  }
});

test('orch controller-manager apart from the server publishes its kubeconfig\'s CA and keeps endpoints', async t => {
  // the server runs no controllers of its own here
  const orch = await startOrch({ args: ['--controllers=-namespace'] });
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const child = spawn(join(repoRoot, 'bin/orch'), ['controller-manager', '--kubeconfig', orch.kubeconfig, '--controllers', 'root-ca-cert-publisher,serviceaccount,endpointslice'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise(r => child.once('exit', r));
  t.after(async () => { child.kill('SIGTERM'); await exited; });
  const c = rawClient(orch.kubeconfig);
  const ca = Buffer.from((parse(readFileSync(orch.kubeconfig, 'utf8')) as any).clusters[0].cluster['certificate-authority-data'], 'base64').toString('utf8');
  assert.equal((await c.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: 'apart' } }) })).status, 201);
  const cm = await until('kube-root-ca.crt in apart', async () => { const r = await c.request('GET', '/api/v1/namespaces/apart/configmaps/kube-root-ca.crt'); return r.status === 200 && r.json(); });
  assert.equal(cm.data['ca.crt'], ca);
  await until('default SA in apart', async () => (await c.request('GET', '/api/v1/namespaces/apart/serviceaccounts/default')).status === 200);
  assert.equal((await c.request('POST', '/api/v1/namespaces/apart/services', { body: JSON.stringify({ metadata: { name: 's' }, spec: { selector: { app: 's' }, ports: [{ port: 80 }] } }) })).status, 201);
  await until('placeholder slice', async () => (await c.request('GET', '/apis/discovery.k8s.io/v1/namespaces/apart/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Ds')).json().items.length === 1);
  // the endpoints controller was not asked for
  assert.equal((await c.request('GET', '/api/v1/namespaces/apart/endpoints/s')).status, 404);
});
