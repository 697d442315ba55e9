// The built-in admission plugins through real kubectl (1.33 and 1.27 against one `orch server`),
// printing exactly what kube-apiserver's refusals print: NamespaceLifecycle (a missing
// namespace, a terminating one, the namespaces that may not go), ServiceAccount (an account
// that does not exist), NodeRestriction (a node's writes narrowed to its own objects) and
// PodSecurity (a refusal, a workload's warning, a tightened namespace label's warnings).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { issueCert } from '../../src/pki/certs.ts';
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

function refused(r: Run, reason: string, message: string): void {
  assert.equal(r.code, 1, r.stdout);
  assert.equal(r.stderr, `Error from server (${reason}): ${message}\n`);
}

/** `kubectl create configmap` prints the server's message under its own prefix, as it does against any cluster */
function createRefused(r: Run, message: string): void {
  assert.equal(r.code, 1, r.stdout);
  assert.equal(r.stderr, `error: failed to create configmap: ${message}\n`);
}

async function nodeKubeconfig(orch: OrchProcess, node: string): Promise<string> {
  const pki = join(orch.dataDir, 'pki');
  const ca = { cert: await readFile(join(pki, 'ca.crt'), 'utf8'), key: await readFile(join(pki, 'ca.key'), 'utf8') };
  const c = await issueCert(ca, { commonName: `system:node:${node}`, organizations: ['system:nodes'], days: 1, usage: 'client' });
  const b = (s: string) => Buffer.from(s).toString('base64');
  const path = join(orch.dataDir, `${node}.kubeconfig`);
  await writeFile(path, `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "${orch.url}", certificate-authority-data: ${b(ca.cert)} } }]
users: [{ name: ${node}, user: { client-certificate-data: ${b(c.cert)}, client-key-data: ${b(c.key)} } }]
contexts: [{ name: x, context: { cluster: c, user: ${node} } }]
current-context: x
`);
  return path;
}

describe('admission plugins with kubectl', needsKubectl, () => {
  let orch: OrchProcess;
  let n1: string;
  const admin = (...args: string[]) => kubectl(versions[0]!.path, orch.kubeconfig, args);

  before(async () => {
    orch = await startOrch();
    n1 = await nodeKubeconfig(orch, 'n1');
    ok(await kubectl(versions[0]!.path, orch.kubeconfig, ['create', '-f', '-'], `apiVersion: v1
kind: Node
metadata: { name: n1, labels: { kubernetes.io/hostname: n1 } }
---
apiVersion: v1
kind: Node
metadata: { name: n2 }
---
apiVersion: v1
kind: Namespace
metadata: { name: closing }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: held, namespace: closing, finalizers: [example.com/hold] }
---
apiVersion: v1
kind: Namespace
metadata: { name: psa, labels: { pod-security.kubernetes.io/enforce: restricted } }
---
apiVersion: v1
kind: Namespace
metadata: { name: loose }
`));
    // the finalizer keeps the namespace terminating while the test looks
    ok(await admin('delete', 'namespace', 'closing', '--wait=false'));
    await until('closing is terminating', async () => (await admin('get', 'namespace', 'closing', '-o', 'jsonpath={.status.phase}')).stdout === 'Terminating');
    for (const ns of ['default', 'psa', 'loose']) await until(`the default service account in ${ns}`, async () => (await admin('-n', ns, 'get', 'serviceaccount', 'default', '-o', 'name')).code === 0);
    ok(await admin('-n', 'loose', 'run', 'hosty', '--image=busybox', '--overrides={"spec":{"hostNetwork":true}}'));
    ok(await kubectl(versions[0]!.path, orch.kubeconfig, ['create', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: { name: on-n2 }
spec: { nodeName: n2, containers: [{ name: c, image: busybox }] }
`));
  });
  after(async () => {
    await admin('patch', '-n', 'closing', 'configmap', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}');
    await orch.stop();
    await orch.cleanup();
  });

  test('NamespaceLifecycle: a missing namespace, a terminating one, and the namespaces that may not be deleted', async () => {
    for (const k of versions) {
      const run = (...args: string[]) => kubectl(k.path, orch.kubeconfig, args);
      createRefused(await run('-n', 'ghost', 'create', 'configmap', 'x'), 'namespaces "ghost" not found');
      createRefused(await run('-n', 'closing', 'create', 'configmap', 'late'), 'configmaps "late" is forbidden: unable to create new content in namespace closing because it is being terminated');
      refused(await kubectl(k.path, orch.kubeconfig, ['create', '-f', '-'], 'apiVersion: v1\nkind: Secret\nmetadata: { name: s, namespace: ghost }\n'), 'NotFound', 'error when creating "STDIN": namespaces "ghost" not found');
      for (const ns of ['default', 'kube-system', 'kube-public']) {
        refused(await run('delete', 'namespace', ns), 'Forbidden', `namespaces "${ns}" is forbidden: this namespace may not be deleted`);
      }
    }
  });

  test('ServiceAccount: a pod whose service account does not exist', async () => {
    for (const k of versions) {
      refused(await kubectl(k.path, orch.kubeconfig, ['run', `lost-${k.label.replace(/\W/g, '')}`, '--image=busybox', '--overrides={"spec":{"serviceAccountName":"ghost"}}']),
        'Forbidden', `pods "lost-${k.label.replace(/\W/g, '')}" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found`);
    }
  });

  test('NodeRestriction: node n1 may change only its own Node, not its taints or restricted labels, and only pods bound to it', async () => {
    for (const k of versions) {
      const n = (...args: string[]) => kubectl(k.path, n1, args);
      refused(await n('label', 'node', 'n2', 'x=y'), 'Forbidden', 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
      refused(await n('label', 'node', 'n1', 'node-restriction.kubernetes.io/pool=a'), 'Forbidden', 'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool');
      refused(await n('taint', 'node', 'n1', 'k=v:NoSchedule'), 'Forbidden', 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints');
      refused(await n('delete', 'pod', 'on-n2'), 'Forbidden', 'pods "on-n2" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself');
      assert.match(ok(await n('label', 'node', 'n1', `topology.kubernetes.io/zone=z${k.label.replace(/\W/g, '')}`, '--overwrite')), /^node\/n1 (labeled|not labeled)\n$/);
    }
  });

  test('PodSecurity: a pod refused by the restricted level, a Deployment warned about, a tightened namespace warned about its pods', async () => {
    const restricted = (c: string) => `violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "${c}" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "${c}" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "${c}" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "${c}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;
    for (const k of versions) {
      const v = k.label.replace(/\W/g, '');
      const run = (...args: string[]) => kubectl(k.path, orch.kubeconfig, args);
      refused(await run('-n', 'psa', 'run', `p${v}`, '--image=busybox'), 'Forbidden', `pods "p${v}" is forbidden: ${restricted(`p${v}`)}`);
      const d = await run('-n', 'psa', 'create', 'deployment', `d${v}`, '--image=busybox');
      assert.equal(d.code, 0, d.stderr);
      assert.equal(d.stderr, `Warning: would ${restricted('busybox').replace(/^violates/, 'violate')}\n`);
      assert.equal(d.stdout, `deployment.apps/d${v} created\n`);
      const level = k === versions[0] ? 'baseline' : 'restricted';
      const l = await run('label', 'namespace', 'loose', `pod-security.kubernetes.io/enforce=${level}`, '--overwrite');
      assert.equal(l.code, 0, l.stderr);
      const reasons = level === 'baseline' ? 'host namespaces' : 'host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile';
      assert.equal(l.stderr, `Warning: existing pods in namespace "loose" violate the new PodSecurity enforce level "${level}:latest"\nWarning: hosty: ${reasons}\n`);
      assert.equal(l.stdout, 'namespace/loose labeled\n');
    }
  });
});
