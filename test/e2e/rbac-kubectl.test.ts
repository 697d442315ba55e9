// RBAC through real kubectl (newest and oldest available) against `orch server` with its default
// --authorization-mode=RBAC: a user with a client certificate (CN jane) bound to a namespaced
// Role sees exactly what a real cluster prints when allowed and denied, `auth can-i` (with
// --list and --as) answers from the access reviews, impersonation is checked, roles and bindings
// cannot grant more than their writer holds, and aggregated roles follow their parts.

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

function denied(r: Run, message: string): void {
  assert.equal(r.code, 1, r.stdout);
  assert.equal(r.stderr, `Error from server (Forbidden): ${message}\n`);
}

async function userKubeconfig(orch: OrchProcess, name: string, groups: string[] = []): Promise<string> {
  const pki = join(orch.dataDir, 'pki');
  const ca = { cert: await readFile(join(pki, 'ca.crt'), 'utf8'), key: await readFile(join(pki, 'ca.key'), 'utf8') };
  const c = await issueCert(ca, { commonName: name, organizations: groups, days: 1, usage: 'client' });
  const b = (s: string) => Buffer.from(s).toString('base64');
  const path = join(orch.dataDir, `${name}.kubeconfig`);
  await writeFile(path, `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "${orch.url}", certificate-authority-data: ${b(ca.cert)} } }]
users: [{ name: ${name}, user: { client-certificate-data: ${b(c.cert)}, client-key-data: ${b(c.key)} } }]
contexts: [{ name: x, context: { cluster: c, user: ${name} } }]
current-context: x
`);
  return path;
}

describe('RBAC with kubectl', needsKubectl, () => {
  let orch: OrchProcess;
  let jane: string;
  const admin = (...args: string[]) => kubectl(versions[0]!.path, orch.kubeconfig, args);
  const canI = (bin: string, cfg: string, ...args: string[]) => kubectl(bin, cfg, ['auth', 'can-i', ...args]);

  before(async () => {
    orch = await startOrch();
    jane = await userKubeconfig(orch, 'jane');
    ok(await admin('create', 'namespace', 'dev'));
    ok(await admin('create', 'namespace', 'ops'));
    ok(await admin('-n', 'dev', 'create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods'));
    ok(await admin('-n', 'dev', 'create', 'rolebinding', 'jane-read', '--role=pod-reader', '--user=jane'));
    ok(await admin('-n', 'dev', 'create', 'configmap', 'cm1', '--from-literal=a=b'));
    ok(await admin('-n', 'ops', 'create', 'rolebinding', 'jane-admin', '--clusterrole=admin', '--user=jane'));
    const bin = versions[0]!.path;
    await until('jane can list pods in dev', async () => (await canI(bin, jane, 'list', 'pods', '-n', 'dev')).stdout === 'yes\n');
    // admin is aggregated by the controller from system:aggregate-to-admin, -edit and -view
    await until('jane may create roles in ops', async () => (await canI(bin, jane, 'create', 'roles', '-n', 'ops')).stdout === 'yes\n');
  });
  after(async () => { await orch?.stop(); await orch?.cleanup(); });

  for (const v of versions) {
    test(`kubectl ${v.label}: allowed and denied requests print what a real cluster prints`, async () => {
      const j = (...args: string[]) => kubectl(v.path, jane, args);
      const r = await j('-n', 'dev', 'get', 'pods');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, 'No resources found in dev namespace.\n');
      denied(await j('-n', 'dev', 'get', 'configmaps'), 'configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "dev"');
      denied(await j('-n', 'dev', 'get', 'configmap', 'cm1'), 'configmaps "cm1" is forbidden: User "jane" cannot get resource "configmaps" in API group "" in the namespace "dev"');
      denied(await j('get', 'nodes'), 'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope');
      denied(await j('-n', 'dev', 'get', 'deployments'), 'deployments.apps is forbidden: User "jane" cannot list resource "deployments" in API group "apps" in the namespace "dev"');
      // a server-side dry run needs exactly the rights of the real request
      const dry = await j('-n', 'dev', 'create', 'configmap', 'dry', '--dry-run=server');
      assert.equal(dry.stderr, 'error: failed to create configmap: configmaps is forbidden: User "jane" cannot create resource "configmaps" in API group "" in the namespace "dev"\n');
      denied(await j('-n', 'dev', 'delete', 'pod', 'p1'), 'pods "p1" is forbidden: User "jane" cannot delete resource "pods" in API group "" in the namespace "dev"');
    });

    test(`kubectl ${v.label}: auth can-i, --list and --as`, async () => {
      assert.equal((await canI(v.path, jane, 'list', 'pods', '-n', 'dev')).stdout, 'yes\n');
      const no = await canI(v.path, jane, 'create', 'pods', '-n', 'dev');
      assert.deepEqual([no.code, no.stdout], [1, 'no\n']);
      assert.equal((await canI(v.path, jane, 'get', 'pods', '-n', 'default')).stdout, 'no\n');
      const list = ok(await canI(v.path, jane, '--list', '-n', 'dev')).split('\n');
      assert.match(list[0]!, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/);
      assert.ok(list.some(l => /^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/.test(l)), list.join('\n'));
      assert.ok(list.some(l => /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/.test(l)), list.join('\n'));
      assert.ok(list.some(l => /^\s+\[\/version\]\s+\[\]\s+\[get\]$/.test(l)), list.join('\n'));
      assert.ok(!list.some(l => l.startsWith('configmaps')));
      // the administrator asks on jane's behalf; jane may not impersonate anyone
      assert.equal((await canI(v.path, orch.kubeconfig, 'list', 'pods', '-n', 'dev', '--as', 'jane')).stdout, 'yes\n');
      assert.equal((await canI(v.path, orch.kubeconfig, 'list', 'configmaps', '-n', 'dev', '--as', 'jane')).stdout, 'no\n');
      denied(await kubectl(v.path, orch.kubeconfig, ['-n', 'dev', 'get', 'configmaps', '--as', 'jane']), 'configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "dev"');
      denied(await kubectl(v.path, jane, ['-n', 'dev', 'get', 'pods', '--as', 'bob']), 'users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
      denied(await kubectl(v.path, jane, ['-n', 'dev', 'get', 'pods', '--as', 'jane', '--as-group', 'system:masters']), 'users "jane" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
    });
  }

  test('roles and bindings grant no more than their writer holds; escalate and bind lift that', async () => {
    const j = (...args: string[]) => kubectl(versions[0]!.path, jane, args);
    ok(await j('-n', 'ops', 'create', 'role', 'small', '--verb=get,list', '--resource=pods'));
    denied(await j('-n', 'ops', 'create', 'role', 'big', '--verb=get,list', '--resource=nodes'),
      'roles.rbac.authorization.k8s.io "big" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["get" "list"]}');
    // kubectl create rolebinding words its failures itself
    const root = await j('-n', 'ops', 'create', 'rolebinding', 'root', '--clusterrole=cluster-admin', '--user=jane');
    assert.equal(root.code, 1);
    assert.equal(root.stderr, 'error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "root" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}\n');
    ok(await j('-n', 'ops', 'create', 'rolebinding', 'view-for-bob', '--clusterrole=view', '--user=bob'));
    // `bind` on cluster-admin lets her bind it without holding it
    ok(await admin('create', 'clusterrole', 'binder', '--verb=bind', '--resource=clusterroles', '--resource-name=cluster-admin'));
    ok(await admin('-n', 'ops', 'create', 'rolebinding', 'jane-binder', '--clusterrole=binder', '--user=jane'));
    await until('jane may bind cluster-admin', async () => (await j('auth', 'can-i', 'bind', 'clusterroles/cluster-admin', '-n', 'ops')).stdout === 'yes\n');
    ok(await j('-n', 'ops', 'create', 'rolebinding', 'root', '--clusterrole=cluster-admin', '--user=bob'));
  });

  test('Node authorizer: a node reads only what its pods use and changes only its own Node', async () => {
    const node = await userKubeconfig(orch, 'system:node:n1', ['system:nodes']);
    const n = (...args: string[]) => kubectl(versions[0]!.path, node, args);
    ok(await admin('-n', 'dev', 'create', 'secret', 'generic', 'used', '--from-literal=a=b'));
    ok(await admin('-n', 'dev', 'create', 'secret', 'generic', 'unused', '--from-literal=a=b'));
    ok(await kubectl(versions[0]!.path, orch.kubeconfig, ['create', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: { name: on-n1, namespace: dev }
spec:
  nodeName: n1
  containers: [{ name: c, image: busybox, env: [{ name: A, valueFrom: { secretKeyRef: { name: used, key: a } } }] }]
`));
    ok(await kubectl(versions[0]!.path, orch.kubeconfig, ['create', '-f', '-'], 'apiVersion: v1\nkind: Node\nmetadata: { name: n2 }\n'));
    await until('n1 may read the secret its pod uses', async () => (await n('-n', 'dev', 'get', 'secret', 'used', '-o', 'name')).stdout === 'secret/used\n');
    denied(await n('-n', 'dev', 'get', 'secret', 'unused'), `secrets "unused" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "dev": no relationship found between node 'n1' and this object`);
    denied(await n('-n', 'dev', 'get', 'secrets'), 'secrets is forbidden: User "system:node:n1" cannot list resource "secrets" in API group "" in the namespace "dev": no relationship found between node \'n1\' and this object');
    ok(await n('get', 'pods', '-A'));
    denied(await n('label', 'node', 'n2', 'x=y'), 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
  });

  test('aggregated roles follow the roles their selectors pick', async () => {
    ok(await kubectl(versions[0]!.path, orch.kubeconfig, ['create', '-f', '-'], `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: widgets-view, labels: { rbac.authorization.k8s.io/aggregate-to-view: "true" } }
rules: [{ apiGroups: [example.com], resources: [widgets], verbs: [get, list] }]
`));
    const has = async (role: string) => JSON.parse(ok(await admin('get', 'clusterrole', role, '-o', 'json'))).rules.some((r: { resources?: string[] }) => r.resources?.includes('widgets'));
    await until('view gathers widgets-view', () => has('view'));
    await until('edit gathers view, admin gathers edit', async () => (await has('edit')) && has('admin'));
    ok(await admin('delete', 'clusterrole', 'widgets-view'));
    await until('view drops it again', async () => !(await has('view')));
  });
});
