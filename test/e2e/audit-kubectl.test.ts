// Audit logging with real kubectl against one `orch server` started with --audit-policy-file and
// --audit-log-path: kubectl's creates and reads become the audit.k8s.io/v1 Event lines the policy
// asks for, with kubectl's user agent, the admin user and the authorizer's decision.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

interface Event { level: string; stage: string; verb: string; auditID: string; userAgent?: string; user: { username: string }; objectRef?: { resource?: string; namespace?: string; name?: string }; responseStatus?: { code: number; reason?: string }; requestObject?: any; responseObject?: any; annotations?: Record<string, string> }

describe('audit log with kubectl', needsKubectl, () => {
  let orch: OrchProcess;
  let dir: string;
  let logPath: string;
  const run = (...args: string[]) => kubectl(versions[0]!.path, orch.kubeconfig, args);
  const lines = async (): Promise<Event[]> => (await readFile(logPath, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(l => JSON.parse(l) as Event);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'audit-e2e-'));
    logPath = join(dir, 'audit.log');
    await writeFile(join(dir, 'policy.yaml'), `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
  namespaces: [audited]
- level: Metadata
  resources: [{group: "", resources: [secrets]}]
- level: None
`);
    orch = await startOrch({ args: [`--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${logPath}`, '--audit-log-maxsize=1'] });
  });

  after(async () => {
    await orch?.stop();
    await orch?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  test('kubectl create and get become RequestResponse and Metadata events', async () => {
    ok(await run('create', 'namespace', 'audited'));
    ok(await run('-n', 'audited', 'create', 'configmap', 'settings', '--from-literal=mode=strict'));
    assert.match(ok(await run('-n', 'audited', 'get', 'configmap', 'settings', '-o', 'name')), /configmap\/settings/);
    const missing = await run('-n', 'audited', 'get', 'secret', 'nope');
    assert.equal(missing.stderr, 'Error from server (NotFound): secrets "nope" not found\n');

    const events = await until('the audit events of kubectl\'s requests', async () => {
      const all = await lines();
      return all.some(e => e.objectRef?.name === 'nope') && all.some(e => e.verb === 'get' && e.objectRef?.name === 'settings') ? all : undefined;
    }, 5000, 50);
    // the namespace and everything else the policy leaves at None are not there
    assert.deepEqual(events.filter(e => e.objectRef?.resource === 'namespaces'), []);
    assert.ok(events.every(e => e.stage !== 'RequestReceived'));

    const create = events.find(e => e.verb === 'create' && e.objectRef?.resource === 'configmaps' && e.responseObject?.metadata?.name === 'settings')!;
    assert.equal(create.level, 'RequestResponse');
    assert.equal(create.stage, 'ResponseComplete');
    assert.equal(create.user.username, 'kubernetes-admin');
    assert.match(create.userAgent ?? '', /^kubectl/);
    assert.deepEqual(create.requestObject.data, { mode: 'strict' });
    assert.equal(create.responseObject.metadata.name, 'settings');
    assert.equal(create.responseStatus?.code, 201);
    // the name comes from the object sent, as Kubernetes fills it
    assert.deepEqual(create.objectRef, { resource: 'configmaps', namespace: 'audited', name: 'settings', apiVersion: 'v1' });
    assert.equal(create.annotations?.['authorization.k8s.io/decision'], 'allow');

    const get = events.find(e => e.verb === 'get' && e.objectRef?.name === 'settings')!;
    assert.equal(get.responseObject.data.mode, 'strict');
    assert.equal(get.requestObject, undefined);

    const nope = events.find(e => e.objectRef?.name === 'nope')!;
    assert.equal(nope.level, 'Metadata');
    assert.equal(nope.responseStatus?.code, 404);
    assert.equal(nope.responseStatus?.reason, 'NotFound');
    assert.equal(nope.responseObject, undefined);
    assert.notEqual(nope.auditID, get.auditID);
  });

  test('a bad policy stops the server with kube-apiserver\'s message', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n');
    await assert.rejects(startOrch({ args: [`--audit-policy-file=${join(dir, 'bad.yaml')}`, `--audit-log-path=${logPath}`] }),
      (err: Error) => err.message.includes(`rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${join(dir, 'bad.yaml')}`));
  });
});
