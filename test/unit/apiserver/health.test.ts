import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../../src/api/log.ts';
import { createHealth } from '../../../src/apiserver/health.ts';
import type { Health, HealthResponse } from '../../../src/apiserver/health.ts';

const q = (s = '') => new URLSearchParams(s);
async function get(h: Health, url: string): Promise<HealthResponse> {
  const u = new URL(url, 'https://x');
  const r = await h.handle(u.pathname, u.searchParams);
  assert.ok(r, `${url} is a health path`);
  return r;
}

function failing(message = 'storage is not reachable') {
  return { name: 'etcd', check() { throw new Error(message); } };
}

test('passing checks: plain "ok", verbose list in registration order with shutdown last', async () => {
  const h = createHealth();
  h.addCheck(['healthz', 'livez', 'readyz'], { name: 'etcd', async check() {} });
  h.addCheck(['readyz'], { name: 'informer-sync', check() {} });
  h.addPostStartHook('start-system-namespaces-controller')();
  const plain = await get(h, '/readyz');
  assert.deepEqual([plain.status, plain.body], [200, 'ok']);
  assert.equal(plain.headers['Content-Type'], 'text/plain; charset=utf-8');
  assert.equal(plain.headers['X-Content-Type-Options'], 'nosniff');
  assert.equal((await get(h, '/readyz?verbose')).body, [
    '[+]ping ok', '[+]log ok', '[+]etcd ok', '[+]informer-sync ok',
    '[+]poststarthook/start-system-namespaces-controller ok', '[+]shutdown ok', 'readyz check passed', '',
  ].join('\n'));
  assert.equal((await get(h, '/livez?verbose=false')).body, [
    '[+]ping ok', '[+]log ok', '[+]etcd ok', '[+]poststarthook/start-system-namespaces-controller ok', 'livez check passed', '',
  ].join('\n'), 'verbose counts by its presence; shutdown and informer-sync are readyz only');
  assert.equal((await get(h, '/healthz?verbose')).body.endsWith('\n[+]poststarthook/start-system-namespaces-controller ok\nhealthz check passed\n'), true);
  assert.deepEqual(h.checkNames('healthz'), ['ping', 'log', 'etcd', 'poststarthook/start-system-namespaces-controller']);
});

test('a failing check: 500 with the full list even without verbose, reasons withheld', async () => {
  const h = createHealth();
  h.addCheck(['healthz', 'livez', 'readyz'], failing());
  const r = await get(h, '/readyz');
  assert.equal(r.status, 500);
  assert.equal(r.body, '[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n');
  assert.equal(r.body.includes('storage is not reachable'), false);
  assert.equal((await get(h, '/livez')).body.endsWith('[-]etcd failed: reason withheld\nlivez check failed\n'), true);
});

test('a rejected promise and a check that never settles both fail', async () => {
  const h = createHealth({ checkTimeoutMs: 20 });
  h.addCheck(['readyz'], { name: 'slow', check: () => new Promise<void>(() => {}) });
  h.addCheck(['livez'], { name: 'rejects', check: () => Promise.reject(new Error('nope')) });
  const r = await get(h, '/readyz/slow');
  assert.deepEqual([r.status, r.body], [500, 'internal server error: timed out after 20ms\n']);
  assert.equal((await get(h, '/livez')).status, 500);
});

test('exclude leaves checks out; unknown names are warned about, sorted and quoted', async () => {
  const h = createHealth();
  h.addCheck(['readyz'], failing());
  const r = await get(h, '/readyz?verbose&exclude=etcd&exclude=zz&exclude=aa');
  assert.equal(r.status, 200);
  assert.equal(r.body, [
    '[+]ping ok', '[+]log ok', '[+]etcd excluded: ok', '[+]shutdown ok',
    'warn: some health checks cannot be excluded: no matches for "aa","zz"', 'readyz check passed', '',
  ].join('\n'));
  assert.equal((await get(h, '/readyz?exclude=etcd')).body, 'ok', 'not verbose: no list');
  const stillFailing = await get(h, '/readyz?exclude=nope');
  assert.equal(stillFailing.status, 500);
  assert.match(stillFailing.body, /warn: some health checks cannot be excluded: no matches for "nope"\nreadyz check failed\n$/);
});

test('single checks by path: ok, the error itself on failure, 404 for unknown names', async () => {
  const h = createHealth();
  h.addCheck(['readyz'], failing('disk full'));
  assert.equal((await get(h, '/readyz/ping')).body, 'ok');
  assert.deepEqual([(await get(h, '/readyz/etcd')).status, (await get(h, '/readyz/etcd')).body], [500, 'internal server error: disk full\n']);
  assert.deepEqual([(await get(h, '/livez/etcd')).status, (await get(h, '/livez/etcd')).body], [404, '404 page not found\n'], 'etcd is on readyz only');
  assert.equal((await get(h, '/readyz/nope')).status, 404);
  assert.equal((await get(h, '/readyz/')).status, 404);
  assert.equal(await h.handle('/version', q()), undefined);
  assert.equal(await h.handle('/readyzz', q()), undefined);
  assert.equal(await h.handle('/api/v1/readyz', q()), undefined);
});

test('post-start hooks fail with "not finished" until done', async () => {
  const h = createHealth();
  const done = h.addPostStartHook('bootstrap-controller');
  const r = await get(h, '/readyz');
  assert.equal(r.status, 500);
  assert.match(r.body, /\[-\]poststarthook\/bootstrap-controller failed: reason withheld\n/);
  assert.equal((await get(h, '/readyz/poststarthook/bootstrap-controller')).body, 'internal server error: not finished\n');
  assert.equal((await get(h, '/healthz')).status, 500);
  done();
  assert.equal((await get(h, '/readyz')).status, 200);
  assert.equal((await get(h, '/readyz/poststarthook/bootstrap-controller')).body, 'ok');
});

test('livez grace period: unfinished start-up hooks pass on livez only, and only for the period', async () => {
  let now = 1_000;
  const h = createHealth({ now: () => now, livezGracePeriodMs: 5_000 });
  const done = h.addPostStartHook('bootstrap-controller');
  h.addCheck(['livez', 'readyz'], failing());
  h.addCheck(['livez'], { name: 'slow-boot', check() { throw new Error('x'); } }, { bootSequence: true });
  h.addCheck(['livez'], { name: 'late', check() {} }, { bootSequence: true });
  const v = await get(h, '/livez?exclude=etcd&verbose');
  assert.equal(v.status, 200, v.body);
  assert.match(v.body, /\[\+\]poststarthook\/bootstrap-controller ok\n/);
  assert.equal((await get(h, '/livez/poststarthook/bootstrap-controller')).status, 200);
  assert.equal((await get(h, '/livez')).status, 500, 'checks without bootSequence get no grace');
  assert.equal((await get(h, '/readyz?exclude=etcd')).status, 500, 'readyz has no grace period');
  assert.equal((await get(h, '/healthz')).status, 500, 'healthz has no grace period');
  now = 6_001;
  const after = await get(h, '/livez?exclude=etcd');
  assert.equal(after.status, 500);
  assert.match(after.body, /\[-\]poststarthook\/bootstrap-controller failed/);
  assert.match(after.body, /\[-\]slow-boot failed/);
  done();
  assert.equal((await get(h, '/livez?exclude=etcd&exclude=slow-boot')).status, 200);
});

test('without a grace period livez fails at once', async () => {
  const h = createHealth();
  h.addPostStartHook('x');
  assert.equal((await get(h, '/livez')).status, 500);
});

test('shutdown fails readyz only', async () => {
  const h = createHealth();
  assert.equal((await get(h, '/readyz')).status, 200);
  h.beginShutdown();
  const r = await get(h, '/readyz');
  assert.equal(r.status, 500);
  assert.match(r.body, /\[-\]shutdown failed: reason withheld\nreadyz check failed\n$/);
  assert.equal((await get(h, '/readyz/shutdown')).body, 'internal server error: process is shutting down\n');
  assert.equal((await get(h, '/livez')).status, 200);
  assert.equal((await get(h, '/healthz')).status, 200);
  assert.equal((await get(h, '/livez/shutdown')).status, 404);
});

test('a name may be registered once per endpoint', () => {
  const h = createHealth();
  h.addCheck(['readyz'], { name: 'etcd', check() {} });
  assert.throws(() => h.addCheck(['livez', 'readyz'], { name: 'etcd', check() {} }), /already registered on \/readyz/);
  assert.deepEqual(h.checkNames('livez'), ['ping', 'log'], 'a refused registration adds nothing');
  assert.throws(() => h.addCheck(['readyz'], { name: 'shutdown', check() {} }));
  assert.throws(() => h.addPostStartHook('a') && h.addPostStartHook('a'));
});

test('failures are logged with their reasons', async () => {
  const lines: string[] = [];
  const h = createHealth({ log: createLogger('info', l => lines.push(l), { format: 'json' }) });
  h.addCheck(['readyz'], failing('disk full'));
  await get(h, '/readyz');
  assert.equal(lines.length, 1);
  const entry = JSON.parse(lines[0]!);
  assert.deepEqual([entry.msg, entry.failures], ['/readyz check failed', ['[-]etcd failed: disk full']]);
});
