// Real kubectl (newest and oldest available) against a real `orch server` process.

import { after, before, describe, suite, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { requires } from '../support/requires.ts';

const manifest = (ns: string) => `
apiVersion: v1
kind: Namespace
metadata:
  name: ${ns}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: ${ns}
data:
  mode: fast
---
apiVersion: v1
kind: Secret
metadata:
  name: creds
  namespace: ${ns}
type: Opaque
stringData:
  password: hunter2
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: ${ns}
spec:
  selector: { app: web }
  ports: [{ port: 80, targetPort: 8080 }]
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers: [{ name: web, image: busybox:1.36 }]
---
apiVersion: v1
kind: Pod
metadata:
  name: solo
  namespace: ${ns}
spec:
  containers: [{ name: main, image: busybox:1.36 }]
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: lock
  namespace: ${ns}
spec:
  holderIdentity: me
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: robot
  namespace: ${ns}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: reader
  namespace: ${ns}
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list]
`;

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

function headerOf(out: string): string[] {
  return out.split('\n')[0]!.trim().split(/\s{2,}/);
}

const versions = kubectls();
if (versions.length === 0) test('kubectl end-to-end', requires('no kubectl binary found'), () => {});

// each version against a server of its own, the two side by side; each one's cases in order
suite('kubectl against orch server', { concurrency: true }, () => {
  for (const { label, path: bin } of versions) {
    describe(`kubectl ${label}`, { concurrency: 1 }, () => {
      let orch: OrchProcess;
      const ns = `e2e-${label.replace('.', '-')}`;
      const k = (args: string[], input?: string) => kubectl(bin, orch.kubeconfig, args, input);
      before(async () => { orch = await startOrch(); });
      after(async () => { await orch.stop(); await orch.cleanup(); });

      test('create -f a multi-document manifest', async () => {
        const out = ok(await k(['create', '-f', '-'], manifest(ns)));
        for (const line of [`namespace/${ns} created`, 'configmap/settings created', 'secret/creds created', 'service/web created',
          'deployment.apps/web created', 'pod/solo created', 'lease.coordination.k8s.io/lock created', 'serviceaccount/robot created',
          'role.rbac.authorization.k8s.io/reader created']) {
          assert.ok(out.includes(line), `missing "${line}" in:\n${out}`);
        }
      });

      test('create generators and run, which send protobuf bodies', async () => {
        const gen = `${ns}-gen`;
        assert.match(ok(await k(['create', 'namespace', gen])), new RegExp(`namespace/${gen} created`));
        assert.match(ok(await k(['-n', gen, 'create', 'configmap', 'c', '--from-literal=a=b'])), /configmap\/c created/);
        assert.match(ok(await k(['-n', gen, 'create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2'])), /deployment.apps\/web created/);
        assert.match(ok(await k(['-n', gen, 'run', 'one', '--image=busybox', '--labels=x=y', '--', 'sleep', '10'])), /pod\/one created/);
        assert.equal(ok(await k(['-n', gen, 'get', 'cm', 'c', '-o', 'jsonpath={.data.a}'])), 'b');
        assert.equal(ok(await k(['-n', gen, 'get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image}'])), '2 nginx:1.27');
        assert.equal(ok(await k(['-n', gen, 'get', 'pod', 'one', '-o', 'jsonpath={.metadata.labels.x} {.spec.containers[0].args}'])), 'y ["sleep","10"]');
        const again = await k(['-n', gen, 'create', 'configmap', 'c']);
        assert.match(again.stderr, /configmaps "c" already exists/);
      });

      test('get prints the columns a v1.36 cluster prints', async () => {
        const pods = ok(await k(['get', 'pods', '-n', ns]));
        assert.deepEqual(headerOf(pods), ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
        assert.match(pods, /solo\s+0\/1\s+Pending\s+0\s+\d+s/);
        const wide = ok(await k(['get', 'pods', '-n', ns, '-o', 'wide']));
        assert.deepEqual(headerOf(wide), ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
        assert.deepEqual(headerOf(ok(await k(['get', 'deployments', '-n', ns]))), ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
        const svc = ok(await k(['get', 'svc', '-n', ns]));
        assert.deepEqual(headerOf(svc), ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
        assert.match(svc, /web\s+ClusterIP\s+10\.\d+\.\d+\.\d+\s+<none>\s+80\/TCP/);
        const nss = ok(await k(['get', 'ns']));
        assert.deepEqual(headerOf(nss), ['NAME', 'STATUS', 'AGE']);
        for (const n of ['default', 'kube-system', 'kube-public', 'kube-node-lease', ns]) assert.match(nss, new RegExp(`^${n}\\s+Active`, 'm'));
        assert.deepEqual(headerOf(ok(await k(['get', 'cm', '-n', ns]))), ['NAME', 'DATA', 'AGE']);
        assert.deepEqual(headerOf(ok(await k(['get', 'secrets', '-n', ns]))), ['NAME', 'TYPE', 'DATA', 'AGE']);
        assert.deepEqual(headerOf(ok(await k(['get', 'leases', '-n', ns]))), ['NAME', 'HOLDER', 'AGE']);
        assert.deepEqual(headerOf(ok(await k(['get', 'roles', '-n', ns]))), ['NAME', 'CREATED AT']);
        // API Priority and Fairness' bootstrap configuration, with its Dangling conditions judged
        const flows = ok(await k(['get', 'flowschemas']));
        assert.deepEqual(headerOf(flows), ['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']);
        assert.match(flows, /^exempt\s+exempt\s+1\s+<none>\s+\S+\s+False$/m);
        assert.match(flows, /^system-nodes\s+system\s+500\s+ByUser\s+\S+\s+False$/m);
        assert.match(flows, /^kube-scheduler\s+workload-high\s+800\s+ByNamespace\s+\S+\s+False$/m);
        assert.equal(flows.trim().split('\n').length, 12);
        const levels = ok(await k(['get', 'prioritylevelconfigurations']));
        assert.deepEqual(headerOf(levels), ['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE']);
        assert.match(levels, /^catch-all\s+Limited\s+5\s+<none>\s+<none>\s+<none>\s+\S+$/m);
        assert.match(levels, /^exempt\s+Exempt\s+<none>\s+<none>\s+<none>\s+<none>\s+\S+$/m);
        assert.match(levels, /^workload-low\s+Limited\s+100\s+128\s+6\s+50\s+\S+$/m);
      });

      test('get -o yaml shows server-filled fields', async () => {
        const y = ok(await k(['get', 'deployment', 'web', '-n', ns, '-o', 'yaml']));
        for (const s of ['apiVersion: apps/v1', 'kind: Deployment', 'generation: 1', 'resourceVersion:', 'uid:', 'creationTimestamp:', 'revisionHistoryLimit: 10', 'type: RollingUpdate']) {
          assert.ok(y.includes(s), `missing ${s}`);
        }
      });

      test('replace, and a stale resourceVersion gives Conflict', async () => {
        const cm = JSON.parse(ok(await k(['get', 'cm', 'settings', '-n', ns, '-o', 'json'])));
        cm.data.mode = 'slow';
        assert.match(ok(await k(['replace', '-f', '-'], JSON.stringify(cm))), /configmap\/settings replaced/);
        assert.equal(ok(await k(['get', 'cm', 'settings', '-n', ns, '-o', 'jsonpath={.data.mode}'])), 'slow');
        cm.data.mode = 'stale';
        const r = await k(['replace', '-f', '-'], JSON.stringify(cm));
        assert.notEqual(r.code, 0);
        assert.match(r.stderr, /Error from server \(Conflict\): error when replacing "STDIN": Operation cannot be fulfilled on configmaps "settings": the object has been modified; please apply your changes to the latest version and try again/);
      });

      test('scale deployment through the scale subresource', async () => {
        assert.match(ok(await k(['scale', 'deployment', 'web', '-n', ns, '--replicas=3'])), /deployment.apps\/web scaled/);
        assert.equal(ok(await k(['get', 'deployment', 'web', '-n', ns, '-o', 'jsonpath={.spec.replicas}'])), '3');
      });

      test('NotFound and AlreadyExists read as on a real cluster', async () => {
        const nf = await k(['get', 'configmap', 'nope', '-n', ns]);
        assert.notEqual(nf.code, 0);
        assert.match(nf.stderr, /Error from server \(NotFound\): configmaps "nope" not found/);
        const ae = await k(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: ns } }));
        assert.match(ae.stderr, /Error from server \(AlreadyExists\): error when creating "STDIN": configmaps "settings" already exists/);
        assert.match((await k(['get', 'pods', '-n', ns, 'x'])).stderr, /Error from server \(NotFound\): pods "x" not found/);
        // kubectl looks the namespace up itself after a NotFound, as against a real cluster
        assert.match((await k(['get', 'pods', '-n', 'missing-ns', 'x'])).stderr, /Error from server \(NotFound\): namespaces "missing-ns" not found/);
      });

      test('get -w streams changes', async () => {
        const child = spawn(bin, ['--kubeconfig', orch.kubeconfig, 'get', 'cm', '-n', ns, '-w', '--output-watch-events'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', d => { out += d; });
        try {
          await new Promise(r => setTimeout(r, 700));
          ok(await k(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched', namespace: ns } })));
          ok(await k(['patch', 'cm', 'watched', '-n', ns, '--type=merge', '-p', '{"data":{"a":"b"}}']));
          ok(await k(['delete', 'cm', 'watched', '-n', ns]));
          for (let i = 0; i < 100 && !/DELETED\s+watched/.test(out); i++) await new Promise(r => setTimeout(r, 50));
          assert.match(out, /ADDED\s+watched\s+0/);
          assert.match(out, /MODIFIED\s+watched\s+1/);
          assert.match(out, /DELETED\s+watched\s+1/);
        } finally {
          child.kill();
        }
      });

      test('get --chunk-size pages through the list', async () => {
        for (const n of ['page-a', 'page-b', 'page-c']) ok(await k(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: n, namespace: ns } })));
        const r = await k(['get', 'secrets', '-n', ns, '--chunk-size=2', '-v=6']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /limit=2/);
        assert.match(r.stderr, /continue=/, 'a second page was asked for');
        for (const n of ['creds', 'page-a', 'page-b', 'page-c']) assert.match(r.stdout, new RegExp(`^${n}\\s`, 'm'));
      });

      test('get --watch-only shows only changes', async () => {
        const child = spawn(bin, ['--kubeconfig', orch.kubeconfig, 'get', 'leases', '-n', ns, '--watch-only'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', d => { out += d; });
        try {
          await new Promise(r => setTimeout(r, 700));
          ok(await k(['create', '-f', '-'], JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'fresh', namespace: ns }, spec: { holderIdentity: 'x' } })));
          for (let i = 0; i < 100 && !/fresh/.test(out); i++) await new Promise(r => setTimeout(r, 50));
          assert.match(out, /fresh\s+x/);
          assert.doesNotMatch(out, /lock/, 'existing objects are not listed');
        } finally {
          child.kill();
        }
      });

      test('system namespaces cannot be deleted', async () => {
        const r = await k(['delete', 'namespace', 'kube-system', '--wait=false']);
        assert.match(r.stderr, /Error from server \(Forbidden\): namespaces "kube-system" is forbidden: this namespace may not be deleted/);
      });

      test('delete', async () => {
        assert.match(ok(await k(['delete', 'configmap', 'settings', '-n', ns])), /configmap "settings" deleted/);
        assert.match(ok(await k(['delete', 'pod', 'solo', '-n', ns])), /pod "solo" deleted/);
        assert.match((await k(['get', 'pod', 'solo', '-n', ns])).stderr, /NotFound/);
      });

      test('api-resources lists built-in types with short names and scope', async () => {
        const out = ok(await k(['api-resources']));
        assert.match(out, /^pods\s+po\s+v1\s+true\s+Pod$/m);
        assert.match(out, /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
        assert.match(out, /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
        assert.match(out, /^services\s+svc\s+v1\s+true\s+Service$/m);
        assert.match(out, /^leases\s+coordination.k8s.io\/v1\s+true\s+Lease$/m);
        assert.match(out, /^nodes\s+no\s+v1\s+false\s+Node$/m);
      });

      test('explain reads the published OpenAPI', async () => {
        const out = ok(await k(['explain', 'pods.spec.containers']));
        assert.match(out, /KIND:\s+Pod/);
        assert.match(out, /image\s/);
      });

      test('deleting a namespace removes everything in it, then the namespace', async () => {
        const r = await k(['delete', 'namespace', ns, '--timeout=30s']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, new RegExp(`namespace "${ns}" deleted`));
        assert.match((await k(['get', 'namespace', ns])).stderr, /NotFound/);
        for (const kind of ['deployments', 'services', 'secrets', 'leases', 'roles']) {
          assert.match(ok(await k(['get', kind, '-A'])), /^$|NAMESPACE/, kind);
          assert.doesNotMatch(ok(await k(["get", kind, "-A"])), new RegExp(`^${ns}\\s`, "m"), kind);
        }
      });

      test('readyz verbose through the API', async () => {
        const out = ok(await k(['get', '--raw', '/readyz?verbose']));
        assert.match(out, /\[\+\]ping ok/);
        assert.match(out, /\[\+\]etcd ok/);
        assert.match(out, /readyz check passed/);
      });
    });
  }
});
