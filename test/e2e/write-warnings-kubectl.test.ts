// The resource strategies' write warnings (kube-apiserver's WarningsOnCreate/WarningsOnUpdate)
// through kubectl 1.33 and 1.27 against one `orch server`: a pod and a Deployment that trigger
// several of them, with stderr compared line for line to what kubectl prints against a real
// cluster (one "Warning: " line per warning, in kube-apiserver's order); a server-side dry run
// warns too, and an update that leaves the template alone says nothing.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { requires } from '../support/requires.ts';

const versions = kubectls();

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

const pod = (ns: string) => `apiVersion: v1
kind: Pod
metadata:
  name: warned
  namespace: ${ns}
  annotations:
    container.apparmor.security.beta.kubernetes.io/app: runtime/default
    scheduler.alpha.kubernetes.io/critical-pod: ""
spec:
  nodeSelector: { beta.kubernetes.io/os: linux }
  volumes: [{ name: src, gitRepo: { repository: "https://example.com/r.git" } }]
  containers:
  - name: app
    image: busybox
    env: [{ name: A, value: "1" }, { name: A, value: "2" }]
    resources: { requests: { memory: 100m } }
    ports: [{ containerPort: 80 }, { containerPort: 80 }]
`;

const podWarnings = [
  'Warning: metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead',
  'Warning: spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
  'Warning: metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
  'Warning: spec.volumes[0].gitRepo: deprecated in v1.11',
  'Warning: spec.containers[0].resources.requests[memory]: fractional byte value "100m" is invalid, must be an integer',
  'Warning: spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply',
  'Warning: spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]',
];

const deployment = (ns: string) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web.v1, namespace: ${ns} }
spec:
  replicas: 0
  selector: { matchLabels: { app: web } }
  template:
    metadata:
      labels: { app: web }
      annotations: { container.apparmor.security.beta.kubernetes.io/app: unconfined }
    spec:
      terminationGracePeriodSeconds: -1
      imagePullSecrets: [{ name: reg }, { name: reg }]
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms: [{ matchExpressions: [{ key: failure-domain.beta.kubernetes.io/zone, operator: In, values: [a] }] }]
      containers: [{ name: app, image: busybox }]
`;

const deploymentWarnings = [
  "Warning: metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]",
  'Warning: spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'Warning: spec.template.spec.imagePullSecrets[1].name: duplicate name "reg"',
  'Warning: spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead',
  'Warning: spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
];

const lines = (stderr: string) => stderr.split('\n').filter(l => l !== '');

describe('write warnings with kubectl', requires(versions.length === 0 && 'no kubectl binary found'), () => {
  let orch: OrchProcess;
  before(async () => { orch = await startOrch(); });
  after(async () => { await orch?.stop(); await orch?.cleanup(); });

  for (const v of versions) {
    const run = (args: string[], input?: string) => kubectl(v.path, orch.kubeconfig, args, input);
    const ns = `warn-${v.label.replace(/\W/g, '')}`;

    test(`kubectl ${v.label}: a pod's warnings on apply, once each, in kube-apiserver's order`, async () => {
      ok(await run(['create', 'namespace', ns]));
      const dry = await run(['create', '--dry-run=server', '-f', '-'], pod(ns));
      assert.equal(ok(dry), 'pod/warned created (server dry run)\n');
      assert.deepEqual(lines(dry.stderr), podWarnings);
      const r = await run(['apply', '-f', '-'], pod(ns));
      assert.equal(ok(r), 'pod/warned created\n');
      assert.deepEqual(lines(r.stderr), podWarnings);
      // the annotation's profile was carried into the field
      assert.equal(ok(await run(['get', 'pod', 'warned', '-n', ns, '-o', 'jsonpath={.spec.containers[0].securityContext.appArmorProfile.type}'])), 'RuntimeDefault');
    });

    test(`kubectl ${v.label}: a Deployment's template warnings on create; none for a label, again for a template change`, async () => {
      const r = await run(['create', '-f', '-'], deployment(ns));
      assert.equal(ok(r), 'deployment.apps/web.v1 created\n');
      assert.deepEqual(lines(r.stderr), deploymentWarnings);
      const labelled = await run(['label', 'deployment', 'web.v1', '-n', ns, 'tier=front']);
      assert.equal(ok(labelled), 'deployment.apps/web.v1 labeled\n');
      assert.equal(labelled.stderr, '');
      const changed = await run(['set', 'env', 'deployment/web.v1', '-n', ns, 'X=1']);
      assert.equal(ok(changed), 'deployment.apps/web.v1 env updated\n');
      assert.deepEqual(lines(changed.stderr), deploymentWarnings.slice(1));
    });
  }
});
