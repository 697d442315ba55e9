// ResourceQuota and LimitRanger through real kubectl (newest and oldest available) against
// `orch server` with its default admission plugins and controllers: a compute quota refuses a
// pod that states no resources, a LimitRange's defaults make it acceptable (with Kubernetes'
// annotation), the quota refuses the pod past its limit with Kubernetes' exact message, `kubectl
// describe quota` and `kubectl get quota` show what the controller and admission counted, and a
// deleted pod is given back.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { requires } from '../support/requires.ts';

const versions = kubectls();
const needsKubectl = requires(versions.length === 0 && 'no kubectl binary found');

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

function refused(r: Run, message: string): void {
  assert.equal(r.code, 1, r.stdout);
  assert.equal(r.stderr, `Error from server (Forbidden): ${message}\n`);
}

const limitRange = `apiVersion: v1
kind: LimitRange
metadata: { name: defaults }
spec:
  limits:
  - type: Container
    max: { cpu: "1" }
    default: { cpu: 500m, memory: 256Mi }
    defaultRequest: { cpu: 100m, memory: 128Mi }
`;

const bigPod = `apiVersion: v1
kind: Pod
metadata: { name: big }
spec:
  containers:
  - { name: app, image: busybox, resources: { limits: { cpu: "2" } } }
`;

describe('ResourceQuota and LimitRanger with kubectl', needsKubectl, () => {
  let orch: OrchProcess;
  before(async () => { orch = await startOrch(); });
  after(async () => { await orch?.stop(); await orch?.cleanup(); });

  for (const v of versions) {
    test(`kubectl ${v.label}: quota refusals, LimitRange defaults and quota figures as a real cluster shows them`, async () => {
      const ns = `quota-${v.label.replace('.', '-')}`;
      const k = (...args: string[]) => kubectl(v.path, orch.kubeconfig, ['-n', ns, ...args]);
      ok(await k('create', 'namespace', ns));
      ok(await k('create', 'quota', 'q', '--hard=pods=2,requests.cpu=1,limits.memory=1Gi'));
      await until('the controller counts the quota', async () => (await k('get', 'quota', 'q', '-o', 'jsonpath={.status.used.pods}')).stdout === '0');

      // a compute quota needs containers to state what it limits
      refused(await k('run', 'p0', '--image=busybox', '--restart=Never'),
        'pods "p0" is forbidden: failed quota: q: must specify limits.memory for: p0; requests.cpu for: p0');

      // LimitRanger's defaults come before the quota's checks
      ok(await kubectl(v.path, orch.kubeconfig, ['-n', ns, 'apply', '-f', '-'], limitRange));
      ok(await k('run', 'p1', '--image=busybox', '--restart=Never'));
      const p1 = JSON.parse(ok(await k('get', 'pod', 'p1', '-o', 'json')));
      assert.deepEqual(p1.spec.containers[0].resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
      assert.equal(p1.metadata.annotations['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: cpu, memory request for container p1; cpu, memory limit for container p1');
      assert.equal(p1.status.qosClass, 'Burstable');
      const big = await kubectl(v.path, orch.kubeconfig, ['-n', ns, 'create', '-f', '-'], bigPod);
      assert.equal(big.stderr, 'Error from server (Forbidden): error when creating "STDIN": pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2\n');

      ok(await k('run', 'p2', '--image=busybox', '--restart=Never'));
      refused(await k('run', 'p3', '--image=busybox', '--restart=Never'),
        'pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2');

      const described = ok(await k('describe', 'quota', 'q'));
      assert.equal(described, [
        'Name:          q',
        `Namespace:     ${ns}`,
        'Resource       Used   Hard',
        '--------       ----   ----',
        'limits.memory  512Mi  1Gi',
        'pods           2      2',
        'requests.cpu   200m   1',
        '',
      ].join('\n'));
      const listed = ok(await k('get', 'quota'));
      assert.match(listed, /^NAME\s+REQUEST\s+LIMIT\s+AGE\nq\s+pods: 2\/2, requests\.cpu: 200m\/1\s+limits\.memory: 512Mi\/1Gi\s+\d+s\n$/);

      // a deleted pod is given back by the controller
      ok(await k('delete', 'pod', 'p1', '--wait=false'));
      await until('the deleted pod no longer counts', async () => (await k('get', 'quota', 'q', '-o', 'jsonpath={.status.used.pods}')).stdout === '1');
      ok(await k('run', 'p3', '--image=busybox', '--restart=Never'));
    });
  }
});
