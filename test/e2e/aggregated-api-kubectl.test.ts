// An extension API server written here (HTTPS, discovery and one resource, flunders of
// wardle.example.com) registered through a Service without selector, its Endpoints and
// EndpointSlice on loopback, and an APIService; reached with kubectl 1.33 and 1.27 through
// `orch server`. The extension trusts only the front-proxy client certificate orch presents,
// as it learns it from kube-system/extension-apiserver-authentication, and records the
// identity headers it is sent. An unauthorized user is refused by orch before the extension.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { kubectl, kubectls } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { requires } from '../support/requires.ts';
import { createCa, issueCert } from '../../src/pki/certs.ts';

const versions = kubectls();
const group = 'wardle.example.com';
const gv = `${group}/v1alpha1`;

const resourceList = {
  kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv,
  resources: [{ name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list'], shortNames: ['fl'] }],
};

interface Seen { path: string; headers: IncomingHttpHeaders; clientCN?: string }

// the extension's own OpenAPI, which orch merges into /openapi/v2 and serves under /openapi/v3
const flunder = {
  description: 'A Flunder is what wardle serves.',
  type: 'object',
  properties: {
    apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' },
    spec: { description: 'What the flunder is.', type: 'object', properties: { reference: { description: 'The name of what this flunder refers to.', type: 'string' } } },
  },
  'x-kubernetes-group-version-kind': [{ group: 'wardle.example.com', kind: 'Flunder', version: 'v1alpha1' }],
};
const flunderV2 = { swagger: '2.0', info: { title: 'wardle', version: 'v0' }, paths: { [`/apis/${gv}/namespaces/{namespace}/flunders`]: { get: { operationId: 'listWardleExampleComV1alpha1NamespacedFlunder', responses: { 200: { description: 'OK' } } } } }, definitions: { 'com.example.wardle.v1alpha1.Flunder': flunder } };
// kubectl explain finds the kind of a resource by its paths' x-kubernetes-group-version-kind
const flunderPaths = { [`/apis/${gv}/namespaces/{namespace}/flunders/{name}`]: { get: { operationId: 'readWardleExampleComV1alpha1NamespacedFlunder', 'x-kubernetes-action': 'get', 'x-kubernetes-group-version-kind': { group: 'wardle.example.com', kind: 'Flunder', version: 'v1alpha1' }, responses: { 200: { description: 'OK' } } } } };
const flunderV3 = { openapi: '3.0.0', info: { title: 'wardle', version: 'v0' }, paths: flunderPaths, components: { schemas: { 'com.example.wardle.v1alpha1.Flunder': flunder } } };

async function startExtension(frontProxyCa: string): Promise<{ server: Server; port: number; caBundle: string; seen: Seen[] }> {
  const ca = await createCa('wardle-ca', 1);
  const serving = await issueCert(ca, { commonName: 'wardle-api', days: 1, usage: 'server', dnsNames: ['wardle-api.wardle.svc'] });
  const seen: Seen[] = [];
  // only clients holding a certificate of the front-proxy CA get in (requestheader-client-ca-file)
  const server = createServer({ cert: serving.cert, key: serving.key, ca: frontProxyCa, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    seen.push({ path, headers: req.headers, clientCN: (req.socket as TLSSocket).getPeerCertificate().subject?.CN as string | undefined });
    const json = (code: number, body: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path === `/apis/${gv}`) return json(200, resourceList);
    if (path === '/openapi/v2') return json(200, flunderV2);
    if (path === '/openapi/v3') return json(200, { paths: { [`apis/${gv}`]: { serverRelativeURL: `/openapi/v3/apis/${gv}?hash=1` } } });
    if (path === `/openapi/v3/apis/${gv}`) return json(200, flunderV3);
    const m = /^\/apis\/wardle\.example\.com\/v1alpha1\/namespaces\/([^/]+)\/flunders$/.exec(path);
    if (m) {
      return json(200, { kind: 'FlunderList', apiVersion: gv, metadata: { resourceVersion: '1' }, items: [
        { kind: 'Flunder', apiVersion: gv, metadata: { name: `flunder-of-${req.headers['x-remote-user']}`, namespace: m[1], creationTimestamp: '2026-01-01T00:00:00Z' } },
      ] });
    }
    json(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'the server could not find the requested resource' });
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, caBundle: Buffer.from(ca.cert).toString('base64'), seen };
}

describe('aggregated API with kubectl', requires(versions.length === 0 && 'no kubectl binary found'), () => {
  let orch: OrchProcess;
  let ext: Awaited<ReturnType<typeof startExtension>>;
  const admin = (args: string[], input?: string) => kubectl(versions[0]!.path, orch.kubeconfig, args, input);

  before(async () => {
    orch = await startOrch();
    const cm = await admin(['get', 'configmap', '-n', 'kube-system', 'extension-apiserver-authentication', '-o', 'json']);
    assert.equal(cm.code, 0, cm.stderr);
    const data = JSON.parse(cm.stdout).data as Record<string, string>;
    assert.deepEqual(JSON.parse(data['requestheader-allowed-names']!), ['front-proxy-client']);
    ext = await startExtension(data['requestheader-client-ca-file']!);
    const objects = `apiVersion: v1
kind: Namespace
metadata: { name: wardle }
---
apiVersion: v1
kind: Service
metadata: { name: wardle-api, namespace: wardle }
spec: { ports: [{ name: https, port: 443, targetPort: ${ext.port} }] }
---
apiVersion: v1
kind: Endpoints
metadata: { name: wardle-api, namespace: wardle }
subsets: [{ addresses: [{ ip: 127.0.0.1 }], ports: [{ name: https, port: ${ext.port} }] }]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: { name: wardle-api-1, namespace: wardle, labels: { kubernetes.io/service-name: wardle-api } }
addressType: IPv4
endpoints: [{ addresses: [127.0.0.1], conditions: { ready: true } }]
ports: [{ name: https, port: ${ext.port}, protocol: TCP }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: flunder-reader, namespace: wardle }
rules: [{ apiGroups: [${group}], resources: [flunders], verbs: [get, list] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: alice-reads-flunders, namespace: wardle }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: flunder-reader }
subjects: [{ apiGroup: rbac.authorization.k8s.io, kind: User, name: alice }]
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: { name: v1alpha1.${group} }
spec:
  group: ${group}
  version: v1alpha1
  service: { namespace: wardle, name: wardle-api, port: 443 }
  caBundle: ${ext.caBundle}
  groupPriorityMinimum: 1000
  versionPriority: 15
`;
    const made = await admin(['create', '-f', '-'], objects);
    assert.equal(made.code, 0, made.stderr);
    await until('the APIService is available', async () => {
      const r = await admin(['get', 'apiservice', `v1alpha1.${group}`, '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].reason}']);
      return r.stdout === 'Passed';
    }, 10_000, 100);
  });
  after(async () => { await orch?.stop(); await orch?.cleanup(); if (ext) await new Promise(r => ext.server.close(r)); });

  test('kubectl get apiservices: the local ones and the extension, all available', async () => {
    const r = await admin(['get', 'apiservices']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^NAME\s+SERVICE\s+AVAILABLE\s+AGE$/m);
    assert.match(r.stdout, /^v1\.\s+Local\s+True\s/m);
    assert.match(r.stdout, /^v1\.apps\s+Local\s+True\s/m);
    assert.match(r.stdout, /^v1beta1\.metrics\.k8s\.io\s+Local\s+True\s/m);
    assert.match(r.stdout, new RegExp(`^v1alpha1\\.wardle\\.example\\.com\\s+wardle/wardle-api\\s+True\\s`, 'm'));
    // the discovery check went in as kube-aggregator's own identity, with the front-proxy certificate
    const check = ext.seen.find(s => s.path === `/apis/${gv}` && s.headers['x-remote-user'] === 'system:kube-aggregator');
    assert.ok(check);
    assert.equal(check.clientCN, 'front-proxy-client');
  });

  test('the extension\'s OpenAPI is merged in: kubectl explain reads its schema', async () => {
    await until('the extension in /openapi/v2', async () => {
      const doc = JSON.parse((await admin(['get', '--raw', '/openapi/v2'])).stdout) as { paths: Record<string, unknown>; definitions: Record<string, unknown> };
      return doc.definitions['com.example.wardle.v1alpha1.Flunder'] && doc.paths[`/apis/${gv}/namespaces/{namespace}/flunders`] && doc.paths['/api/v1/pods'];
    }, 10_000, 200);
    const r = await admin(['explain', 'flunders.spec']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /What the flunder is\./);
    assert.match(r.stdout, /reference\s+<string>\s+The name of what this flunder refers to\./);
    // fetched as kube-aggregator fetches OpenAPI: system:aggregator over the front-proxy certificate
    const download = ext.seen.find(s => s.path === '/openapi/v2');
    assert.equal(download?.headers['x-remote-user'], 'system:aggregator');
    assert.equal(download?.clientCN, 'front-proxy-client');
  });

  for (const v of versions) {
    const run = (args: string[]) => kubectl(v.path, orch.kubeconfig, args);

    test(`kubectl ${v.label}: api-resources and get through the aggregator, with the caller's identity`, async () => {
      const res = await run(['api-resources', `--api-group=${group}`]);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, new RegExp(`^flunders\\s+fl\\s+${gv.replace('.', '\\.')}\\s+true\\s+Flunder$`, 'm'));
      const got = await run(['get', 'flunders', '-n', 'wardle', '--as=alice', '--as-group=wardle-readers']);
      assert.equal(got.code, 0, got.stderr);
      assert.match(got.stdout, /flunder-of-alice/);
      const seen = ext.seen.filter(s => s.path === `/apis/${gv}/namespaces/wardle/flunders`).at(-1)!;
      assert.equal(seen.headers['x-remote-user'], 'alice');
      assert.equal(seen.headers['x-remote-group'], 'wardle-readers, system:authenticated');
      assert.equal(seen.headers.authorization, undefined);
      assert.equal(seen.headers['impersonate-user'], undefined);
      assert.equal(seen.clientCN, 'front-proxy-client');
    });

    test(`kubectl ${v.label}: a user without rights is refused by orch and never reaches the extension`, async () => {
      const before = ext.seen.length;
      const r = await run(['get', 'flunders', '-n', 'wardle', '--as=mallory']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /Error from server \(Forbidden\): flunders\.wardle\.example\.com is forbidden: User "mallory" cannot list resource "flunders" in API group "wardle\.example\.com" in the namespace "wardle"/);
      assert.ok(!ext.seen.slice(before).some(s => s.headers['x-remote-user'] === 'mallory'));
    });
  }

  test('without endpoints: Available False, MissingEndpoints, and a 503 for its requests', async () => {
    assert.equal((await admin(['delete', 'endpointslice', '-n', 'wardle', 'wardle-api-1'])).code, 0);
    const emptied = await admin(['patch', 'endpoints', '-n', 'wardle', 'wardle-api', '--type=merge', '-p', '{"subsets":null}']);
    assert.equal(emptied.code, 0, emptied.stderr);
    const reason = await until('the APIService turns unavailable', async () => {
      const r = await admin(['get', 'apiservice', `v1alpha1.${group}`, '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].status}/{.status.conditions[?(@.type=="Available")].reason}: {.status.conditions[?(@.type=="Available")].message}']);
      return r.stdout.startsWith('False/') && r.stdout;
    }, 10_000, 100);
    assert.equal(reason, 'False/MissingEndpoints: endpoints for service/wardle-api in "wardle" have no addresses with port name "https"');
    const table = await admin(['get', 'apiservice', `v1alpha1.${group}`, '--no-headers']);
    assert.match(table.stdout, /^v1alpha1\.wardle\.example\.com\s+wardle\/wardle-api\s+False \(MissingEndpoints\)\s/);
    const raw = await admin(['get', '--raw', `/apis/${gv}/namespaces/wardle/flunders`]);
    assert.equal(raw.code, 1);
    assert.equal(raw.stderr, 'Error from server (ServiceUnavailable): the server is currently unable to handle the request\n');
    // the served OpenAPI goes on without the unavailable extension's part
    await until('the extension out of /openapi/v3', async () => {
      const index = await admin(['get', '--raw', '/openapi/v3']);
      return index.code === 0 && !(`apis/${gv}` in (JSON.parse(index.stdout) as { paths: Record<string, unknown> }).paths);
    }, 10_000, 200);
    const v2 = JSON.parse((await admin(['get', '--raw', '/openapi/v2'])).stdout) as { definitions: Record<string, unknown> };
    assert.equal(v2.definitions['com.example.wardle.v1alpha1.Flunder'], undefined);
  });
});
