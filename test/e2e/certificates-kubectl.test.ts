// Certificates end to end against one `orch server`: a node agent joins with a bootstrap token
// from `orch token create`, gets its client certificate through a CSR the approving controller
// approves and the signing controller signs, and becomes Ready as system:node:<name>; then, with
// kubectl 1.33 and 1.27, a kube-apiserver-client CSR is approved (or denied) with
// `kubectl certificate`, the issued certificate authenticates its user, and one its signer
// refuses is marked Failed. The agent's serving certificate (serverTLSBootstrap) waits for a
// person's approval, and the server, with --kubelet-certificate-authority, then verifies it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCsr } from '../../src/pki/csr.ts';
import { startRuntimeSim, type RuntimeSim } from '../../src/runtime-sim/server.ts';
import { startAgentProcess, type AgentProcess } from './support/agent-process.ts';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { repoRoot, startOrch, type OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { requires } from '../support/requires.ts';

const versions = kubectls();

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

function orchCli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => execFile(join(repoRoot, 'bin/orch'), args, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}: ${stderr}`)) : resolve(stdout))));
}

const kubeconfigYaml = (server: string, caFile: string, user: Record<string, string>) => JSON.stringify({
  apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
  clusters: [{ name: 'c', cluster: { server, 'certificate-authority': caFile } }],
  contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
  users: [{ name: 'u', user }],
});

describe('certificates with kubectl', requires(versions.length === 0 && 'no kubectl binary found'), () => {
  let orch: OrchProcess;
  let dir: string;
  const admin = versions[0]!;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-e2e-certs-'));
    // agents' serving certificates verified against the cluster CA, as kubeadm's guide for serverTLSBootstrap sets it up
    orch = await startOrch({ dataDir: join(dir, 'server'), args: ['--kubelet-certificate-authority', join(dir, 'server', 'pki', 'ca.crt')] });
  });
  after(async () => {
    await orch?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('an agent joins with a bootstrap token: its CSR is approved and signed automatically, and its node becomes Ready', async t => {
    const token = (await orchCli(['token', 'create', '--kubeconfig', orch.kubeconfig])).trim();
    assert.match(token, /^[a-z0-9]{6}\.[a-z0-9]{16}$/);
    const boot = join(dir, 'bootstrap.kubeconfig');
    await writeFile(boot, kubeconfigYaml(orch.url, join(orch.dataDir, 'pki', 'ca.crt'), { token }));
    const sim: RuntimeSim = await startRuntimeSim({ socket: join(dir, 'cri.sock'), podSubnet: '10.77.0.0/24' });
    t.after(() => sim.stop());
    const nodeKubeconfig = join(dir, 'node.kubeconfig');
    const agent: AgentProcess = await startAgentProcess({
      args: ['--bootstrap-kubeconfig', boot, '--kubeconfig', nodeKubeconfig, '--hostname-override', 'joiner', '--node-ip', '127.0.0.1', '--container-runtime-endpoint', sim.endpoint],
      config: { serverTLSBootstrap: true },
    });
    t.after(async () => { await agent.stop(); await agent.cleanup(); });

    await until('node joiner Ready', async () => {
      const r = await kubectl(admin.path, orch.kubeconfig, ['get', 'node', 'joiner', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']);
      return r.code === 0 && r.stdout === 'True';
    }, 20_000);
    const csrs = JSON.parse(ok(await kubectl(admin.path, orch.kubeconfig, ['get', 'csr', '-o', 'json']))).items as Array<{ spec: { username: string; signerName: string }; status: { certificate?: string; conditions?: Array<{ type: string; reason: string; message: string }> } }>;
    const mine = csrs.filter(c => c.spec.username === `system:bootstrap:${token.split('.')[0]}`);
    assert.equal(mine.length, 1, 'one CSR from the bootstrap token');
    assert.equal(mine[0]!.spec.signerName, 'kubernetes.io/kube-apiserver-client-kubelet');
    assert.deepEqual(mine[0]!.status.conditions?.map(c => [c.type, c.reason, c.message]), [['Approved', 'AutoApproved', 'Auto approving kubelet client certificate after SubjectAccessReview.']]);
    const issued = new X509Certificate(Buffer.from(mine[0]!.status.certificate!, 'base64'));
    assert.equal(issued.subject, 'O=system:nodes\nCN=system:node:joiner');
    assert.ok(issued.checkIssued(new X509Certificate(await readFile(join(orch.dataDir, 'pki', 'ca.crt')))));
    // the agent wrote its kubeconfig, and with it acts as the node itself
    const whoami = await kubectl(admin.path, nodeKubeconfig, ['get', 'secrets', '-n', 'kube-system']);
    assert.match(whoami.stderr, /User "system:node:joiner" cannot list resource "secrets" in API group "" in the namespace "kube-system"/);
    assert.doesNotMatch(agent.stderr(), /forbidden/i, 'the node was refused nothing');

    // its serving certificate: asked for as the node, never approved by the controllers; until a
    // person approves it the endpoint refuses handshakes, then the API server verifies it
    const serving = await until('the serving CSR', async () => {
      const r = JSON.parse(ok(await kubectl(admin.path, orch.kubeconfig, ['get', 'csr', '--field-selector', 'spec.signerName=kubernetes.io/kubelet-serving', '-o', 'json']))).items;
      return r.length ? r[0] as { metadata: { name: string }; spec: { username: string; usages: string[] } } : undefined;
    }, 10_000, 100);
    assert.equal(serving.spec.username, 'system:node:joiner');
    assert.deepEqual(serving.spec.usages, ['digital signature', 'server auth']);
    const row = ok(await kubectl(admin.path, orch.kubeconfig, ['get', 'csr', serving.metadata.name])).split('\n')[1]!;
    assert.match(row, new RegExp(`^${serving.metadata.name}\\s+\\S+\\s+kubernetes.io/kubelet-serving\\s+system:node:joiner\\s+<none>\\s+Pending$`));
    const refused = await kubectl(admin.path, orch.kubeconfig, ['get', '--raw', '/api/v1/nodes/joiner/proxy/healthz']);
    assert.equal(refused.stderr.trim(), 'Error from server (ServiceUnavailable): error trying to reach service: remote error: tls: internal error');
    assert.equal(ok(await kubectl(admin.path, orch.kubeconfig, ['certificate', 'approve', serving.metadata.name])).trim(), `certificatesigningrequest.certificates.k8s.io/${serving.metadata.name} approved`);
    const healthz = await until('the agent serving its certificate', async () => {
      const r = await kubectl(admin.path, orch.kubeconfig, ['get', '--raw', '/api/v1/nodes/joiner/proxy/healthz']);
      return r.code === 0 ? r.stdout : undefined;
    }, 10_000, 100);
    assert.equal(healthz, 'ok');
    const served = new X509Certificate(await readFile(join(agent.rootDir, 'pki', 'kubelet-server-current.pem')));
    assert.equal(served.subject, 'O=system:nodes\nCN=system:node:joiner');
    assert.equal(served.subjectAltName, 'DNS:joiner, IP Address:127.0.0.1');
  });

  for (const k of versions) {
    const v = k.label.replace(/\W/g, '');
    test(`a kube-apiserver-client CSR approved with kubectl ${k.label} gives a certificate that authenticates`, async () => {
      const run = (args: string[], input?: string) => kubectl(k.path, orch.kubeconfig, args, input);
      const user = `alice-${v}`;
      const { csr, key } = await createCsr({ commonName: user, organizations: ['dev'] });
      const manifest = (name: string) => JSON.stringify({
        apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name },
        spec: { request: Buffer.from(csr).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], expirationSeconds: 3600 },
      });
      assert.equal(ok(await run(['create', '-f', '-'], manifest(user))).trim(), `certificatesigningrequest.certificates.k8s.io/${user} created`);
      assert.equal(ok(await run(['certificate', 'approve', user])).trim(), `certificatesigningrequest.certificates.k8s.io/${user} approved`);
      const cert = await until('certificate issued', async () => (await run(['get', 'csr', user, '-o', 'jsonpath={.status.certificate}'])).stdout || undefined, 10_000, 100);
      const row = ok(await run(['get', 'csr', user])).split('\n')[1]!;
      assert.match(row, new RegExp(`^${user}\\s+\\S+\\s+kubernetes.io/kube-apiserver-client\\s+kubernetes-admin\\s+60m\\s+Approved,Issued$`));
      const pem = Buffer.from(cert, 'base64').toString('utf8');
      const issued = new X509Certificate(pem);
      assert.ok(Math.abs(Date.parse(issued.validTo) - Date.parse(issued.validFrom) - 3600_000) <= 5 * 60_000 + 2000, 'the lifetime asked for');

      const certFile = join(dir, `${user}.crt`), keyFile = join(dir, `${user}.key`), kc = join(dir, `${user}.kubeconfig`);
      await writeFile(certFile, pem);
      await writeFile(keyFile, key, { mode: 0o600 });
      await writeFile(kc, kubeconfigYaml(orch.url, join(orch.dataDir, 'pki', 'ca.crt'), { 'client-certificate': certFile, 'client-key': keyFile }));
      const asAlice = await kubectl(k.path, kc, ['get', 'pods']);
      assert.equal(asAlice.stderr.trim().split('\n').pop(), `Error from server (Forbidden): pods is forbidden: User "${user}" cannot list resource "pods" in API group "" in the namespace "default"`);

      // another request, denied; and its requester may not approve it
      const bob = `bob-${v}`;
      ok(await run(['create', '-f', '-'], manifest(bob)));
      const selfApprove = await kubectl(k.path, kc, ['certificate', 'approve', bob]);
      assert.notEqual(selfApprove.code, 0);
      assert.match(selfApprove.stderr, new RegExp(`certificatesigningrequests.certificates.k8s.io "${bob}" is forbidden: User "${user}" cannot get resource "certificatesigningrequests" in API group "certificates.k8s.io" at the cluster scope`));
      // allowed to write approvals by RBAC but not to approve for this signer: CertificateApproval refuses
      ok(await run(['create', 'clusterrole', `csr-approver-${v}`, '--verb=get,list,update', '--resource=certificatesigningrequests,certificatesigningrequests/approval']));
      ok(await run(['create', 'clusterrolebinding', `csr-approver-${v}`, `--clusterrole=csr-approver-${v}`, `--user=${user}`]));
      const notForSigner = await until('the binding in effect', async () => {
        const r = await kubectl(k.path, kc, ['certificate', 'approve', bob]);
        return /user not permitted/.test(r.stderr) ? r : undefined;
      }, 5000);
      assert.equal(notForSigner.stderr.trim().split('\n').pop(), `Error from server (Forbidden): certificatesigningrequests.certificates.k8s.io "${bob}" is forbidden: user not permitted to approve requests with signerName "kubernetes.io/kube-apiserver-client"`);
      assert.equal(ok(await run(['certificate', 'deny', bob])).trim(), `certificatesigningrequest.certificates.k8s.io/${bob} denied`);
      assert.match(ok(await run(['get', 'csr', bob])), /\sDenied\n$/);
      // a request its signer refuses: approved, then Failed with the signer's reason
      const carol = `carol-${v}`;
      ok(await run(['create', '-f', '-'], JSON.stringify({ ...JSON.parse(manifest(carol)), spec: { ...JSON.parse(manifest(carol)).spec, usages: ['client auth', 'server auth'] } })));
      ok(await run(['certificate', 'approve', carol]));
      const failed = await until('signer refuses', async () => {
        const out = ok(await run(['get', 'csr', carol, '-o', 'jsonpath={.status.conditions[?(@.type=="Failed")].reason}: {.status.conditions[?(@.type=="Failed")].message}']));
        return out.startsWith('SignerValidationFailure') ? out : undefined;
      }, 10_000, 100);
      assert.equal(failed, 'SignerValidationFailure: invalid usage for client certificate: server auth');
      assert.match(ok(await run(['get', 'csr', carol])), /\sApproved,Failed\n$/);
      const noCert = await until('denied stays unsigned', async () => ok(await run(['get', 'csr', bob, '-o', 'jsonpath={.status.conditions[0].type}/{.status.certificate}'])), 5000);
      assert.equal(noCert, 'Denied/');
    });
  }
});
