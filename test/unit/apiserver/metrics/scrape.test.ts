// /metrics of a real API server in this process: who may read it, that it parses as the
// Prometheus text format, and that a few requests show up under kube-apiserver's names and labels.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../../src/api/log.ts';
import { startServer } from '../../../../src/apiserver/start.ts';
import { loadKubeconfig } from '../../../../src/client/kubeconfig.ts';
import { createClient } from '../../../../src/client/rest.ts';
import { parsePrometheusText, valueOf, find } from '../../../support/prom-text.ts';

function get(url: string, ca: Buffer | undefined, token?: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers: token ? { authorization: `Bearer ${token}` } : {} }, res => {
      let body = '';
      res.setEncoding('utf8').on('data', c => { body += c; }).on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject).end();
  });
}

test('/metrics: system:monitoring reads it, others are refused, and requests are counted as kube-apiserver counts them', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'metrics-api-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, 'mon-token,monitor,u1,"system:monitoring"\nnobody-token,nobody,u2\n');
  const server = await startServer({ dataDir: dir, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0, authentication: { tokenAuthFile: tokens } });
  const config = await loadKubeconfig(server.kubeconfigPath);
  const client = createClient(config);
  t.after(async () => { client.close(); await server.shutdown(); rmSync(dir, { recursive: true, force: true }); });
  const url = `${server.url}/metrics`;

  const anonymous = await get(url, config.ca);
  assert.equal(anonymous.status, 403);
  assert.match(anonymous.body, /cannot get path \\"\/metrics\\"/);
  assert.equal((await get(url, config.ca, 'nobody-token')).status, 403);

  const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });
  const events: unknown[] = [];
  const watch = client.watch('/api/v1/namespaces/default/configmaps', undefined, e => events.push(e), () => undefined);
  await client.create('/api/v1/namespaces/default/configmaps', cm('one'));
  await client.request('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', cm('two'));
  await client.get('/api/v1/namespaces/default/configmaps/one');
  await assert.rejects(client.get('/api/v1/namespaces/default/configmaps/missing'));
  await client.list('/api/v1/namespaces/default/configmaps');
  await client.list('/api/v1/configmaps');
  await client.request('DELETE', '/api/v1/namespaces/default/configmaps/one');
  const end = Date.now() + 5000;
  while (events.length < 2 && Date.now() < end) await new Promise(r => setTimeout(r, 20));
  watch.stop();

  let scrape = await get(url, config.ca, 'mon-token');
  assert.equal(scrape.status, 200);
  assert.equal(scrape.type, 'text/plain; version=0.0.4; charset=utf-8');
  let m = parsePrometheusText(scrape.body);
  const req = (labels: Record<string, string>) => valueOf(m, 'apiserver_request_total', { group: '', version: 'v1', resource: 'configmaps', subresource: '', component: 'apiserver', ...labels });
  assert.equal(req({ verb: 'POST', scope: 'resource', dry_run: '', code: '201' }), 1);
  assert.equal(req({ verb: 'POST', scope: 'resource', dry_run: 'All', code: '201' }), 1);
  assert.equal(req({ verb: 'GET', scope: 'resource', dry_run: '', code: '200' }), 1);
  assert.equal(req({ verb: 'GET', scope: 'resource', dry_run: '', code: '404' }), 1);
  assert.equal(req({ verb: 'LIST', scope: 'namespace', dry_run: '', code: '200' }), 1);
  assert.equal(req({ verb: 'LIST', scope: 'cluster', dry_run: '', code: '200' }), 1);
  assert.equal(req({ verb: 'DELETE', scope: 'resource', dry_run: '', code: '200' }), 1);
  assert.equal(m.types.get('apiserver_request_duration_seconds'), 'histogram');
  assert.equal(valueOf(m, 'apiserver_request_duration_seconds_count', { verb: 'GET', resource: 'configmaps', scope: 'resource', dry_run: '' }), 2, 'the 200 and the 404');
  assert.deepEqual(find(m, 'apiserver_request_duration_seconds_bucket', { verb: 'GET', resource: 'configmaps' }).map(s => s.labels.le).slice(0, 3), ['0.005', '0.025', '0.05']);
  // refused requests are not counted, nor is /metrics itself
  assert.equal(find(m, 'apiserver_request_total', { code: '403' }).length, 0);
  assert.ok(valueOf(m, 'apiserver_current_inflight_requests', { request_kind: 'readOnly' }) >= 1, 'the scrape itself is in flight');
  assert.ok(valueOf(m, 'etcd_request_duration_seconds_count', { operation: 'create', group: '', resource: 'configmaps' }) >= 1);
  assert.ok(valueOf(m, 'etcd_requests_total', { operation: 'delete', group: '', resource: 'configmaps' }) >= 1);
  const all = await client.list('/api/v1/configmaps');
  assert.equal(valueOf(m, 'apiserver_storage_objects', { resource: 'configmaps' }), all.items.length);
  assert.equal(valueOf(m, 'apiserver_resource_objects', { group: '', resource: 'configmaps' }), all.items.length);
  assert.ok(valueOf(m, 'apiserver_watch_events_total', { group: '', version: 'v1', kind: 'ConfigMap' }) >= 2);
  assert.ok(valueOf(m, 'process_cpu_user_seconds_total') > 0);
  assert.equal(m.types.get('nodejs_eventloop_lag_seconds'), 'gauge');

  // the watch is recorded once it has ended, as WATCH
  const until = Date.now() + 5000;
  while (Date.now() < until) {
    m = parsePrometheusText((scrape = await get(url, config.ca, 'mon-token')).body);
    if (find(m, 'apiserver_request_total', { verb: 'WATCH', resource: 'configmaps' }).length) break;
    await new Promise(r => setTimeout(r, 50));
  }
  assert.equal(valueOf(m, 'apiserver_request_total', { verb: 'WATCH', resource: 'configmaps', scope: 'namespace', code: '200' }), 1);
});
