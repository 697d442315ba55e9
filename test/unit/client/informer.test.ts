import { test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { createClient } from '../../../src/client/rest.ts';
import { createInformer, type Informer } from '../../../src/client/informer.ts';
import { beginWatch, sendJSON, startFakeServer, statusBody, until, type Call } from './fake-api-server.ts';

const obj = (name: string, rv: string, extra: object = {}) => ({ metadata: { name, namespace: 'ns', resourceVersion: rv }, ...extra });
const listOf = (rv: string, items: unknown[], cont?: string) => ({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: rv, ...(cont ? { continue: cont } : {}) }, items });

/** a fake whose list and watch answers are scripted in order */
async function scripted(lists: Array<(c: Call, res: http.ServerResponse) => void>, watches: Array<(c: Call, res: http.ServerResponse) => void>) {
  const srv = await startFakeServer((call, res) => {
    const next = call.query.get('watch') ? watches.shift() : lists.shift();
    if (next) return next(call, res);
    beginWatch(res); // nothing more scripted: hang like an idle watch
  });
  const client = createClient({ server: srv.url });
  return { srv, client, close: async () => { client.close(); await srv.close(); } };
}

function record(informer: Informer<any>) {
  const log: string[] = [];
  informer.on('add', o => log.push(`add ${o.metadata.name}@${o.metadata.resourceVersion}`))
    .on('update', (a, b) => log.push(`update ${a.metadata.name}@${a.metadata.resourceVersion}->${b.metadata.resourceVersion}`))
    .on('delete', o => log.push(`delete ${o.metadata.name}`));
  return log;
}

test('lists (paged), then watches from the list version; events split across chunks arrive whole', async t => {
  const { srv, client, close } = await scripted([
    (_c, res) => sendJSON(res, 200, listOf('10', [obj('a', '4')], 'page2')),
    (c, res) => sendJSON(res, 200, c.query.get('continue') === 'page2' ? listOf('10', [obj('b', '9')]) : statusBody(400, 'BadRequest', 'no continue')),
  ], [
    (_c, res) => {
      const w = beginWatch(res);
      const text = [
        { type: 'ADDED', object: obj('c', '11') },
        { type: 'MODIFIED', object: obj('a', '12', { data: { x: '1' } }) },
        { type: 'BOOKMARK', object: { metadata: { resourceVersion: '13' } } },
        { type: 'DELETED', object: obj('b', '14') },
      ].map(e => JSON.stringify(e) + '\n').join('');
      // three chunks cutting through the middle of events
      w.write(text.slice(0, 17));
      setTimeout(() => w.write(text.slice(17, 140)), 10);
      setTimeout(() => w.write(text.slice(140)), 20);
    },
  ]);
  t.after(close);
  const inf = createInformer(client, '/api/v1/namespaces/ns/configmaps', { labelSelector: 'app=x', pageSize: 1 });
  const log = record(inf);
  assert.equal(inf.hasSynced(), false);
  inf.start();
  t.after(() => inf.stop());
  await inf.synced();
  assert.equal(inf.hasSynced(), true);
  await until(() => log.length === 5, 3000, 'five notifications');
  assert.deepEqual(log, ['add a@4', 'add b@9', 'add c@11', 'update a@4->12', 'delete b']);
  assert.deepEqual(inf.list().map(o => o.metadata.name).sort(), ['a', 'c']);
  assert.equal(inf.get('ns/a').data.x, '1');
  assert.equal(inf.lastResourceVersion(), '14');
  const lists = srv.calls.filter(c => !c.query.get('watch'));
  assert.deepEqual(lists.map(c => [c.query.get('limit'), c.query.get('labelSelector')]), [['1', 'app=x'], ['1', 'app=x']]);
  const w = srv.calls.find(c => c.query.get('watch'))!;
  assert.deepEqual([w.query.get('resourceVersion'), w.query.get('allowWatchBookmarks'), w.query.get('labelSelector')], ['10', 'true', 'app=x']);
  assert.ok(Number(w.query.get('timeoutSeconds')) >= 300);
});

test('an add handler registered after the first list hears of every object held, once', async t => {
  const { client, close } = await scripted([(_c, res) => sendJSON(res, 200, listOf('7', [obj('a', '3'), obj('b', '5')]))], []);
  t.after(close);
  const inf = createInformer(client, '/api/v1/namespaces/ns/configmaps');
  const early = record(inf);
  inf.start();
  t.after(() => inf.stop());
  await inf.synced();
  const late = record(inf);
  assert.deepEqual(late, ['add a@3', 'add b@5']);
  assert.deepEqual(early, ['add a@3', 'add b@5'], 'handlers already there are not told twice');
});

test('an ERROR event with code 410 lists again and reports what changed meanwhile', async t => {
  const { srv, client, close } = await scripted([
    (_c, res) => sendJSON(res, 200, listOf('5', [obj('a', '3'), obj('b', '4')])),
    (_c, res) => sendJSON(res, 200, listOf('50', [obj('b', '40'), obj('c', '45')])),
  ], [
    (_c, res) => beginWatch(res).event('ERROR', statusBody(410, 'Expired', 'too old resource version: 5 (30)')),
  ]);
  t.after(close);
  const inf = createInformer(client, '/api/v1/namespaces/ns/configmaps', { minBackoffMs: 5 });
  const log = record(inf);
  inf.start();
  t.after(() => inf.stop());
  await until(() => log.length === 5, 3000, 're-list notifications');
  assert.deepEqual(log, ['add a@3', 'add b@4', 'update b@4->40', 'add c@45', 'delete a']);
  await until(() => srv.calls.filter(c => c.query.get('watch')).length === 2, 3000, 'second watch');
  assert.equal(srv.calls.filter(c => c.query.get('watch'))[1]!.query.get('resourceVersion'), '50');
});

test('an HTTP 410 answer to the watch also lists again', async t => {
  const { srv, client, close } = await scripted([
    (_c, res) => sendJSON(res, 200, listOf('5', [])),
    (_c, res) => sendJSON(res, 200, listOf('9', [obj('z', '8')])),
  ], [
    (_c, res) => sendJSON(res, 410, statusBody(410, 'Expired', 'too old resource version')),
  ]);
  t.after(close);
  const inf = createInformer(client, '/api/v1/namespaces/ns/configmaps', { minBackoffMs: 5 });
  const log = record(inf);
  inf.start();
  t.after(() => inf.stop());
  await until(() => log.length === 1, 3000, 're-list');
  assert.deepEqual(log, ['add z@8']);
  assert.equal(srv.calls.filter(c => !c.query.get('watch')).length, 2);
});

test('after a dropped connection or a clean end the watch resumes from the last version, without listing', async t => {
  const { srv, client, close } = await scripted([
    (_c, res) => sendJSON(res, 200, listOf('5', [])),
  ], [
    (_c, res) => { const w = beginWatch(res); w.event('ADDED', obj('a', '7')); setTimeout(() => w.cut(), 20); },
    (_c, res) => { const w = beginWatch(res); w.event('BOOKMARK', { metadata: { resourceVersion: '9' } }); setTimeout(() => w.end(), 20); },
    (_c, res) => beginWatch(res).event('MODIFIED', obj('a', '11')),
  ]);
  t.after(close);
  const inf = createInformer(client, '/api/v1/namespaces/ns/configmaps', { minBackoffMs: 5 });
  const log = record(inf);
  inf.start();
  t.after(() => inf.stop());
  await until(() => log.length === 2, 5000, 'events over three watches');
  assert.deepEqual(log, ['add a@7', 'update a@7->11']);
  const watches = srv.calls.filter(c => c.query.get('watch'));
  assert.deepEqual(watches.map(c => c.query.get('resourceVersion')), ['5', '7', '9']);
  assert.equal(srv.calls.length - watches.length, 1, 'listed once');
});

test('a failing list is retried with backoff; stop() ends the watch', async t => {
  let watchClosed = false;
  const { srv, client, close } = await scripted([
    (_c, res) => sendJSON(res, 500, statusBody(500, 'InternalError', 'boom')),
    (_c, res) => sendJSON(res, 200, listOf('3', [obj('a', '2')])),
  ], [
    (_c, res) => { beginWatch(res); res.on('close', () => { watchClosed = true; }); },
  ]);
  t.after(close);
  const inf = createInformer(client, '/api/v1/namespaces/ns/configmaps', { minBackoffMs: 5 });
  inf.start();
  await inf.synced();
  assert.equal(inf.list().length, 1);
  await until(() => srv.calls.some(c => c.query.get('watch')), 3000, 'watch');
  inf.stop();
  await until(() => watchClosed, 3000, 'watch closed by stop()');
});

test('a transform shapes what is kept and handed to handlers, from the list and from the watch', async t => {
  const { client, close } = await scripted([
    (_c, res) => sendJSON(res, 200, listOf('10', [obj('a', '4', { data: { big: 'x'.repeat(1000), keep: '1' } })])),
  ], [
    (_c, res) => beginWatch(res).write(JSON.stringify({ type: 'MODIFIED', object: obj('a', '11', { data: { big: 'y'.repeat(1000), keep: '2' } }) }) + '\n'),
  ]);
  t.after(close);
  const inf = createInformer(client, '/api/v1/namespaces/ns/configmaps', { transform: o => ({ metadata: o.metadata, keep: o.data.keep }) });
  const seen: unknown[] = [];
  inf.on('add', o => seen.push(o)).on('update', (_a, b) => seen.push(b));
  inf.start();
  t.after(() => inf.stop());
  await until(() => seen.length === 2, 3000, 'the add and the update');
  assert.deepEqual(seen, [obj('a', '4', { keep: '1' }), obj('a', '11', { keep: '2' })]);
  assert.deepEqual(inf.get('ns/a'), obj('a', '11', { keep: '2' }));
});
