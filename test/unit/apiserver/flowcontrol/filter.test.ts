import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { silentLogger } from '../../../../src/api/log.ts';
import type { RequestContext, ResponseLike } from '../../../../src/apiserver/context.ts';
import { parseRequestInfo } from '../../../../src/apiserver/request-info.ts';
import { enterFlowControl, waitLimitMs, type FlowControl } from '../../../../src/apiserver/flowcontrol/filter.ts';
import { Dispatcher } from '../../../../src/apiserver/flowcontrol/dispatcher.ts';
import { MaxInflight } from '../../../../src/apiserver/flowcontrol/max-inflight.ts';
import { exposition } from '../../../../src/api/metrics/exposition.ts';
import { parsePrometheusText, valueOf } from '../../../support/prom-text.ts';
import { level, TestClassifier } from '../../../support/flow-classifier.ts';

class Res extends EventEmitter implements ResponseLike {
  statusCode = 200; headersSent = false; writableEnded = false;
  headers: Record<string, unknown> = {};
  body = '';
  setHeader(n: string, v: unknown) { this.headers[n.toLowerCase()] = v; return this; }
  getHeader(n: string) { return this.headers[n.toLowerCase()]; }
  writeHead(code: number, h: Record<string, unknown>) { this.statusCode = code; for (const [k, v] of Object.entries(h)) this.setHeader(k, v); this.headersSent = true; return this; }
  write(c: string | Uint8Array) { this.headersSent = true; this.body += Buffer.from(c).toString(); return true; }
  end(c?: string | Uint8Array) { if (c !== undefined) this.body += Buffer.from(c).toString(); this.headersSent = this.writableEnded = true; return this; }
}

function request(method: string, url: string, signal = new AbortController().signal): RequestContext & { res: Res } {
  const [path, q = ''] = url.split('?');
  const query = new URLSearchParams(q);
  return { method, query, headers: {}, res: new Res(), info: parseRequestInfo(method, path!, query), body: async () => Buffer.alloc(0), log: silentLogger, signal, warnings: [] };
}

const alice = { name: 'alice', groups: ['system:authenticated'] };
const node = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const admin = { name: 'admin', groups: ['system:masters'] };

function setup(limited: Partial<import('../../../../src/apiserver/flowcontrol/types.ts').PriorityLevel>) {
  const classifier = new TestClassifier([
    level('exempt', { exempt: true, nominalConcurrencyShares: 0 }),
    level('low', { nominalConcurrencyShares: 1, ...limited }),
    level('node-high', { nominalConcurrencyShares: 1, queuing: { queues: 4, handSize: 2, queueLengthLimit: 10 } }),
  ], user => (user.groups.includes('system:masters') ? { flowSchema: 'exempt', level: 'exempt' }
    : user.groups.includes('system:nodes') ? { flowSchema: 'system-nodes', level: 'node-high' }
    : { flowSchema: 'global-default', level: 'low', distinguisher: u => u.name }));
  const dispatcher = new Dispatcher({ classifier, serverConcurrencyLimit: 4, adjustIntervalMs: 0, objectCount: () => 1000 });
  const fc: FlowControl = { dispatcher, requestTimeoutMs: 60_000 };
  return { fc, dispatcher };
}

test('a full level answers 429 as kube-apiserver does: plain text, Retry-After, and the UIDs of the flow schema and level', async () => {
  const { fc, dispatcher } = setup({ queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } });
  const held = [];
  // 2 seats at the level: two run, one waits in the one queue, the next finds it full
  for (let i = 0; i < 2; i++) held.push(await enterFlowControl(request('GET', '/api/v1/namespaces/default/pods/p'), alice, fc));
  const queued = enterFlowControl(request('GET', '/api/v1/namespaces/default/pods/p'), alice, fc);
  const ctx = request('GET', '/api/v1/namespaces/default/pods/p');
  assert.equal(await enterFlowControl(ctx, alice, fc), undefined);
  assert.equal(ctx.res.statusCode, 429);
  assert.equal(ctx.res.body, 'Too many requests, please try again later.\n');
  assert.equal(ctx.res.headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal(ctx.res.headers['retry-after'], '1');
  assert.equal(ctx.res.headers['x-kubernetes-pf-flowschema-uid'], 'uid-fs-global-default');
  assert.equal(ctx.res.headers['x-kubernetes-pf-prioritylevel-uid'], 'uid-pl-low');
  // the node's level is not touched by the flood
  const nodeCtx = request('PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1');
  const release = await enterFlowControl(nodeCtx, node, fc);
  assert.ok(release);
  assert.equal(nodeCtx.res.headers['x-kubernetes-pf-prioritylevel-uid'], 'uid-pl-node-high');
  release();
  held[0]!();
  const q = await queued;
  assert.ok(q);
  q();
  held[1]!();
  const e = parsePrometheusText((await exposition(() => dispatcher.metrics.families).scrape()).body);
  const labels = { priority_level: 'low', flow_schema: 'global-default' };
  assert.equal(valueOf(e, 'apiserver_flowcontrol_rejected_requests_total', { ...labels, reason: 'queue-full' }), 1);
  assert.equal(valueOf(e, 'apiserver_flowcontrol_dispatched_requests_total', labels), 3);
  assert.equal(valueOf(e, 'apiserver_flowcontrol_request_wait_duration_seconds_count', { ...labels, execute: 'true' }), 3);
  assert.equal(valueOf(e, 'apiserver_flowcontrol_current_executing_requests', labels), 0);
  assert.equal(valueOf(e, 'apiserver_flowcontrol_current_inqueue_requests', labels), 0);
  assert.equal(valueOf(e, 'apiserver_flowcontrol_nominal_limit_seats', { priority_level: 'low' }), 2);
  dispatcher.close();
});

test('Retry-After grows while a level keeps rejecting', async () => {
  let now = 0;
  const classifier = new TestClassifier([level('r', { nominalConcurrencyShares: 1 })], () => ({ flowSchema: 'f', level: 'r' }));
  const dispatcher = new Dispatcher({ classifier, serverConcurrencyLimit: 1, adjustIntervalMs: 0, wallClock: () => now });
  const fc: FlowControl = { dispatcher, requestTimeoutMs: 60_000 };
  const held = await enterFlowControl(request('POST', '/api/v1/namespaces/default/configmaps'), alice, fc);
  const retryAfter = async () => {
    const ctx = request('POST', '/api/v1/namespaces/default/configmaps');
    assert.equal(await enterFlowControl(ctx, alice, fc), undefined);
    return Number(ctx.res.headers['retry-after']);
  };
  // a Reject level: no queue, 429 at once, reason concurrency-limit
  for (let i = 0; i < 3; i++) assert.equal(await retryAfter(), 1);
  now = 1000;
  assert.equal(await retryAfter(), 2, 'three rejections in the last second: doubled');
  now = 5000;
  assert.equal(await retryAfter(), 1, 'quiet since: back down');
  held!();
  dispatcher.close();
});

test('a watch holds its seat only until it is set up; exec and other long-running requests pass untouched', async () => {
  // a Reject level: what does not fit is refused at once
  const { fc, dispatcher } = setup({});
  const watch = request('GET', '/api/v1/pods?watch=true');
  const releaseWatch = await enterFlowControl(watch, alice, fc);
  assert.ok(releaseWatch && watch.watchInitialized);
  const other = await enterFlowControl(request('GET', '/api/v1/namespaces/default/pods/a'), alice, fc);
  assert.ok(other);
  assert.equal(await enterFlowControl(request('GET', '/api/v1/namespaces/default/pods/b'), alice, fc), undefined, 'both seats taken');
  watch.watchInitialized!();
  const after = await enterFlowControl(request('GET', '/api/v1/namespaces/default/pods/b'), alice, fc);
  assert.ok(after, 'the initialized watch gave its seat back');
  releaseWatch(); // at the watch's end: nothing more to give back
  const exec = request('POST', '/api/v1/namespaces/default/pods/a/exec');
  const e = await enterFlowControl(exec, alice, fc);
  assert.ok(e);
  assert.equal(exec.res.headers['x-kubernetes-pf-flowschema-uid'], undefined, 'not classified at all');
  other();
  after();
  dispatcher.close();
});

test('exempt requests never wait, even when every limited seat is taken', async () => {
  const { fc, dispatcher } = setup({});
  const held = [await enterFlowControl(request('GET', '/api/v1/namespaces/default/pods/a'), alice, fc), await enterFlowControl(request('GET', '/api/v1/namespaces/default/pods/a'), alice, fc)];
  assert.equal(await enterFlowControl(request('GET', '/api/v1/namespaces/default/pods/a'), alice, fc), undefined);
  const releases = [];
  for (let i = 0; i < 50; i++) {
    const ctx = request('GET', '/api/v1/pods');
    const r = await enterFlowControl(ctx, admin, fc);
    assert.ok(r);
    assert.equal(ctx.res.headers['x-kubernetes-pf-prioritylevel-uid'], 'uid-pl-exempt');
    releases.push(r);
  }
  for (const r of [...releases, ...held]) r!();
  dispatcher.close();
});

test('a request waits a quarter of its deadline in queue, at most a minute; a watch a quarter of the request timeout', () => {
  const q = (s: string) => ({ query: new URLSearchParams(s) });
  assert.equal(waitLimitMs(q(''), 60_000, false), 15_000);
  assert.equal(waitLimitMs(q('timeout=8s'), 60_000, false), 2000);
  assert.equal(waitLimitMs(q('timeout=5m'), 60_000, false), 15_000, 'longer than the request timeout: the request timeout');
  assert.equal(waitLimitMs(q('timeout=bad'), 60_000, false), 15_000);
  assert.equal(waitLimitMs(q(''), 600_000, false), 60_000);
  assert.equal(waitLimitMs(q('timeoutSeconds=10'), 60_000, true), 15_000);
});

test('with APF off, the max-in-flight limits refuse at once, except system:masters; 0 is no limit', async () => {
  const fc: FlowControl = { maxInflight: new MaxInflight(1, 0), requestTimeoutMs: 60_000 };
  const first = await enterFlowControl(request('GET', '/api/v1/pods'), alice, fc);
  assert.ok(first);
  const refused = request('GET', '/api/v1/pods');
  assert.equal(await enterFlowControl(refused, alice, fc), undefined);
  assert.equal(refused.res.statusCode, 429);
  assert.equal(refused.res.headers['retry-after'], '1');
  assert.equal(refused.res.headers['x-kubernetes-pf-flowschema-uid'], undefined);
  assert.ok(await enterFlowControl(request('GET', '/api/v1/pods'), admin, fc), 'system:masters always get an answer');
  for (let i = 0; i < 5; i++) assert.ok(await enterFlowControl(request('POST', '/api/v1/namespaces/default/configmaps'), alice, fc), 'mutating: no limit');
  first();
  assert.ok(await enterFlowControl(request('GET', '/api/v1/pods'), alice, fc));
});

test('watches are counted from admission to their end, and a write is charged final seats for them', async () => {
  const lingering: Array<() => void> = [];
  const classifier = new TestClassifier([level('exempt', { exempt: true, nominalConcurrencyShares: 0 }), level('low', { nominalConcurrencyShares: 1, queuing: { queues: 4, handSize: 2, queueLengthLimit: 10 } })],
    () => ({ flowSchema: 'global-default', level: 'low' }));
  const dispatcher = new Dispatcher({ classifier, serverConcurrencyLimit: 40, adjustIntervalMs: 0, schedule: fn => { lingering.push(fn); } });
  const fc: FlowControl = { dispatcher, requestTimeoutMs: 60_000 };
  const ends: Array<() => void> = [];
  for (let i = 0; i < 20; i++) {
    const ctx = request('GET', '/api/v1/namespaces/default/configmaps?watch=true');
    const end = await enterFlowControl(ctx, alice, fc);
    ctx.watchInitialized!();
    ends.push(end!);
  }
  const scrape = async () => parsePrometheusText((await exposition(() => dispatcher.metrics.families).scrape()).body);
  const labels = { priority_level: 'low', flow_schema: 'global-default' };
  const release = await enterFlowControl(request('PUT', '/api/v1/namespaces/default/configmaps/c'), alice, fc);
  assert.equal(valueOf(await scrape(), 'apiserver_flowcontrol_current_executing_seats', labels), 2, '20 watches: two final seats, held from dispatch');
  release!();
  let m = await scrape();
  assert.equal(valueOf(m, 'apiserver_flowcontrol_current_executing_requests', labels), 0);
  assert.equal(valueOf(m, 'apiserver_flowcontrol_current_executing_seats', labels), 2, 'the watch events still hold them');
  assert.equal(lingering.length, 1);
  lingering.shift()!();
  assert.equal(valueOf(await scrape(), 'apiserver_flowcontrol_current_executing_seats', labels), 0);
  assert.equal(valueOf(await scrape(), 'apiserver_flowcontrol_watch_count_samples_sum', labels), 20);
  for (const end of ends) end();
  (await enterFlowControl(request('PUT', '/api/v1/namespaces/default/configmaps/c'), alice, fc))!();
  m = await scrape();
  assert.equal(lingering.length, 0, 'the watches ended: nothing held after the write');
  assert.equal(valueOf(m, 'apiserver_flowcontrol_watch_count_samples_count', labels), 2);
  assert.equal(valueOf(m, 'apiserver_flowcontrol_watch_count_samples_sum', labels), 20);
});
