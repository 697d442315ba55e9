// Real kubectl (1.27, 1.32, 1.33 where installed) against the discovery and OpenAPI documents,
// served by a bare node:http server: api-resources, api-versions and explain must work.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createCatalog } from '../../../src/schema/catalog.ts';
import { aggregated, aggregatedContentType, coreVersions, group, groupList, resourceList, wantsAggregated } from '../../../src/apiserver/discovery.ts';
import { openapiHandler } from '../../../src/apiserver/openapi.ts';
import { versionInfo } from '../../../src/apiserver/version.ts';
import { requires } from '../../support/requires.ts';

const run = promisify(execFile);
const kubectls: Array<[string, string]> = [
  ['1.27', '/usr/lib/google-cloud-sdk/bin/kubectl.1.27'],
  ['1.32', '/usr/bin/kubectl'],
  ['1.33', '/usr/lib/google-cloud-sdk/bin/kubectl.1.33'],
];

const catalog = createCatalog();
const openapi = openapiHandler(catalog);
let server: Server;
let url = '';
let dir = '';

function serve(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
  const u = new URL(req.url ?? '/', 'http://localhost');
  const path = u.pathname.replace(/\/+$/, '');
  const json = (code: number, body: unknown, type = 'application/json') => {
    res.writeHead(code, { 'Content-Type': type });
    res.end(JSON.stringify(body));
  };
  if (path === '/version') return json(200, versionInfo());
  const doc = openapi(path, u.searchParams, req.headers);
  if (doc) { res.writeHead(doc.status, doc.headers); res.end(doc.body); return; }
  if (path === '/api' || path === '/apis') {
    const agg = wantsAggregated(String(req.headers.accept ?? ''));
    if (agg) return json(200, aggregated(catalog, path === '/api' ? 'legacy' : 'apis', agg), aggregatedContentType(agg));
    return json(200, path === '/api' ? coreVersions(u.host) : groupList(catalog));
  }
  const p = path.split('/').filter(Boolean);
  const body = p[0] === 'api' && p.length === 2 ? resourceList(catalog, '', p[1]!)
    : p[0] === 'apis' && p.length === 2 ? group(catalog, p[1]!)
    : p[0] === 'apis' && p.length === 3 ? resourceList(catalog, p[1]!, p[2]!)
    : undefined;
  if (body) return json(200, body);
  json(404, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404, message: 'the server could not find the requested resource' });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'discovery-kubectl-'));
  writeFileSync(join(dir, 'kubeconfig'), 'apiVersion: v1\nkind: Config\n');
  server = createServer(serve);
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise<void>(resolve => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

let cacheSeq = 0;
async function kubectl(bin: string, ...args: string[]): Promise<string> {
  const cache = join(dir, `cache-${++cacheSeq}`);
  const env = { ...process.env, KUBECONFIG: join(dir, 'kubeconfig'), HOME: dir };
  const { stdout } = await run(bin, ['--server', url, '--cache-dir', cache, ...args], { env, timeout: 60_000, maxBuffer: 16 << 20 });
  return stdout;
}

/** rows of kubectl's column output, cut at the header's column starts */
function table(out: string): Array<Record<string, string>> {
  const [header = '', ...lines] = out.split('\n').filter(l => l.trim());
  const cols = [...header.matchAll(/\S+/g)].map(m => ({ name: m[0], start: m.index! }));
  return lines.map(line => Object.fromEntries(cols.map((c, i) => [c.name, line.slice(c.start, cols[i + 1]?.start ?? undefined).trim()])));
}

const expectedRows: Array<[string, string, string, string, string]> = [
  ['pods', 'po', 'v1', 'true', 'Pod'],
  ['services', 'svc', 'v1', 'true', 'Service'],
  ['namespaces', 'ns', 'v1', 'false', 'Namespace'],
  ['nodes', 'no', 'v1', 'false', 'Node'],
  ['configmaps', 'cm', 'v1', 'true', 'ConfigMap'],
  ['deployments', 'deploy', 'apps/v1', 'true', 'Deployment'],
  ['statefulsets', 'sts', 'apps/v1', 'true', 'StatefulSet'],
  ['leases', '', 'coordination.k8s.io/v1', 'true', 'Lease'],
  ['horizontalpodautoscalers', 'hpa', 'autoscaling/v2', 'true', 'HorizontalPodAutoscaler'],
  ['cronjobs', 'cj', 'batch/v1', 'true', 'CronJob'],
  ['customresourcedefinitions', 'crd,crds', 'apiextensions.k8s.io/v1', 'false', 'CustomResourceDefinition'],
  ['clusterroles', '', 'rbac.authorization.k8s.io/v1', 'false', 'ClusterRole'],
  ['priorityclasses', 'pc', 'scheduling.k8s.io/v1', 'false', 'PriorityClass'],
];

for (const [version, bin] of kubectls) {
  const needed = requires(!existsSync(bin) && `kubectl ${version} not installed at ${bin}`);

  test(`kubectl ${version} api-resources`, needed, async () => {
    const rows = table(await kubectl(bin, 'api-resources'));
    const served = catalog.groups().flatMap(g => catalog.resources(g.name, g.preferredVersion));
    assert.equal(rows.length, served.length);
    for (const [name, shortNames, apiVersion, namespaced, kind] of expectedRows) {
      const row = rows.find(r => r.NAME === name && r.APIVERSION === apiVersion);
      assert.deepEqual(row, { NAME: name, SHORTNAMES: shortNames, APIVERSION: apiVersion, NAMESPACED: namespaced, KIND: kind }, name);
    }
    assert.ok(!rows.some(r => /alpha|beta/.test(r.APIVERSION!)), 'no alpha or beta versions by default');
  });

  test(`kubectl ${version} api-versions`, needed, async () => {
    const got = (await kubectl(bin, 'api-versions')).split('\n').filter(Boolean);
    const want = catalog.groups().flatMap(g => g.versions.map(v => (g.name ? `${g.name}/${v}` : v))).sort();
    assert.deepEqual(got, want);
  });

  test(`kubectl ${version} explain pods.spec.containers`, needed, async () => {
    const out = await kubectl(bin, 'explain', 'pods.spec.containers');
    assert.match(out, /KIND:\s+Pod/);
    assert.match(out, /FIELD:\s+containers\s+<\[\]Container>/);
    assert.match(out, /^\s+image\s+<string>/m);
    const deploy = await kubectl(bin, 'explain', 'deployments.spec.strategy');
    assert.match(deploy, /GROUP:\s+apps/);
    assert.match(deploy, /rollingUpdate\s+<RollingUpdateDeployment>/);
  });
}
