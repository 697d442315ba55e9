import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHealth } from '../../../src/apiserver/health.ts';

const q = (s = '') => new URLSearchParams(s);

test('passing checks: ok, and a verbose list ending in "<endpoint> check passed"', async () => {
  const h = createHealth();
  h.addCheck(['livez', 'readyz'], { name: 'etcd', check() {} });
  const plain = await h.handle('/readyz', q());
  assert.deepEqual([plain!.status, plain!.body], [200, 'ok']);
  const v = await h.handle('/readyz', q('verbose'));
  assert.equal(v!.body, '[+]ping ok\n[+]log ok\n[+]shutdown ok\n[+]etcd ok\nreadyz check passed\n');
  assert.equal((await h.handle('/livez', q('verbose')))!.body.includes('shutdown'), false, 'shutdown is a readyz check only');
});

test('a failing check is a 500 listing every check', async () => {
  const h = createHealth();
  h.addCheck(['readyz'], { name: 'etcd', check() { throw new Error('down'); } });
  const r = await h.handle('/readyz', q());
  assert.equal(r!.status, 500);
  assert.match(r!.body, /\[-\]etcd failed: reason withheld\n/);
  assert.match(r!.body, /readyz check failed\n$/);
});

test('exclude, single checks and unknown names', async () => {
  const h = createHealth();
  h.addCheck(['readyz'], { name: 'etcd', check() { throw new Error('down'); } });
  const r = await h.handle('/readyz', q('verbose&exclude=etcd&exclude=nope'));
  assert.equal(r!.status, 200);
  assert.match(r!.body, /\[\+\]etcd excluded: ok/);
  assert.match(r!.body, /warn: some health checks cannot be excluded: no matches for "nope"/);
  assert.equal((await h.handle('/readyz/ping', q()))!.body, 'ok');
  assert.equal((await h.handle('/readyz/etcd', q()))!.status, 500);
  assert.equal((await h.handle('/readyz/nope', q()))!.status, 404);
  assert.equal(await h.handle('/version', q()), undefined);
});

test('post-start hooks fail until done; livez trusts them during the grace period', async () => {
  let now = 0;
  const h = createHealth({ now: () => now, livezGracePeriodMs: 1000 });
  const done = h.addPostStartHook('bootstrap');
  assert.equal((await h.handle('/readyz', q()))!.status, 500);
  assert.equal((await h.handle('/livez', q()))!.status, 200, 'within the grace period');
  now = 2000;
  assert.equal((await h.handle('/livez', q()))!.status, 500, 'after the grace period');
  done();
  assert.equal((await h.handle('/livez', q()))!.status, 200);
  assert.equal((await h.handle('/readyz/poststarthook/bootstrap', q()))!.status, 200);
});

test('shutdown fails readyz only', async () => {
  const h = createHealth();
  h.beginShutdown();
  assert.equal((await h.handle('/readyz', q()))!.status, 500);
  assert.equal((await h.handle('/livez', q()))!.status, 200);
});
