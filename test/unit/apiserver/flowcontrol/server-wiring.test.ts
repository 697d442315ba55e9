import { test } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../../src/api/log.ts';
import { startServer } from '../../../../src/apiserver/start.ts';
import { loadKubeconfig } from '../../../../src/client/kubeconfig.ts';
import { parsePrometheusText, valueOf } from '../../../support/prom-text.ts';
import { level, TestClassifier } from '../../../support/flow-classifier.ts';

interface Answer { status: number; headers: http2.IncomingHttpHeaders; body: string }

test('the server runs APF between authentication and authorization: held seats make the next request a 429', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'apf-dispatch-wiring-'));
  // ConfigMap creations go to a two-seat level that rejects (no queues); everything else is exempt
  const classifier = new TestClassifier([level('exempt', { exempt: true, nominalConcurrencyShares: 0 }), level('tiny', { nominalConcurrencyShares: 1 })],
    (_u, info) => (info.verb === 'create' && info.resource === 'configmaps' ? { flowSchema: 'cm-writers', level: 'tiny' } : { flowSchema: 'exempt', level: 'exempt' }));
  const server = await startServer({ dataDir: dir, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0, flowControl: { classifier, maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 } });
  const cfg = await loadKubeconfig(server.kubeconfigPath);
  const session = http2.connect(cfg.server, { ca: cfg.ca, cert: cfg.cert, key: cfg.key });
  t.after(async () => { session.destroy(); await server.shutdown(); rmSync(dir, { recursive: true, force: true }); });
  const send = (method: string, path: string, body?: string, hold = false) => {
    const s = session.request({ ':method': method, ':path': path, 'content-type': 'application/json' });
    const answer = new Promise<Answer>((resolve, reject) => {
      let headers: http2.IncomingHttpHeaders = {};
      let text = '';
      s.on('response', h => { headers = h; });
      s.on('data', c => { text += c; });
      s.on('end', () => resolve({ status: Number(headers[':status']), headers, body: text }));
      s.on('error', reject);
    });
    if (body !== undefined) s.write(body);
    if (!hold) s.end();
    return { answer, finish: () => s.end() };
  };
  const cm = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  // two creations whose bodies are still coming hold both seats (the body is read after APF)
  const held = [send('POST', '/api/v1/namespaces/default/configmaps', '', true), send('POST', '/api/v1/namespaces/default/configmaps', '', true)];
  const get = await send('GET', '/api/v1/namespaces/default/configmaps').answer;
  assert.equal(get.status, 200);
  assert.equal(get.headers['x-kubernetes-pf-prioritylevel-uid'], 'uid-pl-exempt', 'exempt requests are classified too');
  let rejected: Answer | undefined;
  for (let i = 0; i < 50 && !rejected; i++) {
    const a = await send('POST', '/api/v1/namespaces/default/configmaps', cm(`c${i}`)).answer;
    if (a.status === 429) rejected = a;
    else await new Promise(r => setTimeout(r, 20));
  }
  assert.ok(rejected, 'a third creation is refused while two hold the seats');
  assert.equal(rejected.body, 'Too many requests, please try again later.\n');
  assert.equal(rejected.headers['retry-after'], '1');
  assert.equal(rejected.headers['x-kubernetes-pf-flowschema-uid'], 'uid-fs-cm-writers');
  assert.equal(rejected.headers['x-kubernetes-pf-prioritylevel-uid'], 'uid-pl-tiny');
  held[0]!.finish();
  held[1]!.finish();
  for (const h of held) assert.equal((await h.answer).status, 400, 'an empty body, answered once it ended');
  const created = await send('POST', '/api/v1/namespaces/default/configmaps', cm('after')).answer;
  assert.equal(created.status, 201, 'seats given back');
  const metrics = parsePrometheusText((await send('GET', '/metrics').answer).body);
  assert.ok(valueOf(metrics, 'apiserver_flowcontrol_rejected_requests_total', { priority_level: 'tiny', flow_schema: 'cm-writers', reason: 'concurrency-limit' })! >= 1);
  assert.equal(valueOf(metrics, 'apiserver_flowcontrol_nominal_limit_seats', { priority_level: 'tiny' }), 2);
});
