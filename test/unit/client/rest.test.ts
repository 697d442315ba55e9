import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, resourcePath, withQuery, type WatchEvent } from '../../../src/client/rest.ts';
import { ApiError, isConflict, isGone, isNotFound } from '../../../src/client/api-error.ts';
import { discoverNamespacedResources } from '../../../src/client/discovery.ts';
import { beginWatch, sendJSON, startFakeServer, statusBody, until } from './fake-api-server.ts';

test('resourcePath: core under /api/v1, groups under /apis, names escaped', () => {
  assert.equal(resourcePath({ group: '', version: 'v1', resource: 'pods' }), '/api/v1/pods');
  assert.equal(resourcePath({ group: 'apps', version: 'v1', resource: 'deployments', namespace: 'ns', name: 'web', subresource: 'scale' }), '/apis/apps/v1/namespaces/ns/deployments/web/scale');
  assert.equal(resourcePath({ group: '', version: 'v1', resource: 'configmaps', namespace: 'a', name: 'x y' }), '/api/v1/namespaces/a/configmaps/x%20y');
  assert.equal(withQuery('/p?watch=1', { a: 'b c', skip: undefined, n: 3 }), '/p?watch=1&a=b+c&n=3');
  assert.equal(withQuery('/p', {}), '/p');
});

test('verbs send the method, JSON body, content type and query the API expects', async t => {
  const srv = await startFakeServer((call, res) => sendJSON(res, 200, { ok: call.method }));
  t.after(() => srv.close());
  const c = createClient({ server: srv.url });
  t.after(() => c.close());
  assert.deepEqual(await c.get('/api/v1/namespaces/x'), { ok: 'GET' });
  await c.list('/api/v1/pods', { labelSelector: 'a=b', limit: 5 });
  await c.create('/api/v1/namespaces', { metadata: { name: 'n' } }, { dryRun: 'All' });
  await c.update('/api/v1/namespaces/n', { metadata: { name: 'n' } });
  await c.patch('/api/v1/namespaces/n', [{ op: 'add', path: '/metadata/labels', value: {} }], 'application/json-patch+json');
  await c.delete('/api/v1/namespaces/n', { propagationPolicy: 'Foreground' });
  await c.deleteCollection('/api/v1/namespaces/n/configmaps', { labelSelector: 'x' });
  const [get, list, create, update, patch, del, delc] = srv.calls;
  assert.equal(get!.method, 'GET');
  assert.equal(list!.query.get('labelSelector'), 'a=b');
  assert.equal(list!.query.get('limit'), '5');
  assert.deepEqual([create!.method, create!.body, create!.query.get('dryRun')], ['POST', { metadata: { name: 'n' } }, 'All']);
  assert.equal(update!.method, 'PUT');
  assert.deepEqual([patch!.method, patch!.body[0].op], ['PATCH', 'add']);
  assert.deepEqual(del!.body, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' });
  assert.deepEqual([delc!.method, delc!.path, delc!.query.get('labelSelector'), delc!.body], ['DELETE', '/api/v1/namespaces/n/configmaps', 'x', undefined]);
});

test('a non-2xx response becomes an ApiError carrying the Status', async t => {
  const srv = await startFakeServer((call, res) => {
    if (call.path.endsWith('/missing')) return sendJSON(res, 404, statusBody(404, 'NotFound', 'namespaces "missing" not found'));
    if (call.path.endsWith('/busy')) return sendJSON(res, 409, statusBody(409, 'Conflict', 'Operation cannot be fulfilled'));
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('bad gateway');
  });
  t.after(() => srv.close());
  const c = createClient({ server: srv.url });
  t.after(() => c.close());
  const err = await c.get('/api/v1/namespaces/missing').catch(e => e);
  assert.ok(err instanceof ApiError);
  assert.deepEqual([err.code, err.reason, err.message], [404, 'NotFound', 'namespaces "missing" not found']);
  assert.equal(err.status.kind, 'Status');
  assert.ok(isNotFound(err) && !isConflict(err) && !isGone(err));
  assert.ok(isConflict(await c.update('/api/v1/namespaces/busy', {}).catch(e => e)));
  const plain = await c.get('/other').catch(e => e);
  assert.ok(plain instanceof ApiError);
  assert.deepEqual([plain.code, plain.status.message], [502, 'bad gateway']);
});

test('watch splits events across chunk boundaries and reports a failed watch as ApiError', async t => {
  const srv = await startFakeServer((call, res) => {
    if (call.query.get('resourceVersion') === 'old') return sendJSON(res, 410, statusBody(410, 'Expired', 'too old resource version: 1 (5)'));
    const w = beginWatch(res);
    const one = JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '2' } } });
    const two = JSON.stringify({ type: 'MODIFIED', object: { metadata: { name: 'a', resourceVersion: '3' }, data: { k: 'ü' } } });
    w.write(one.slice(0, 10));
    setTimeout(() => w.write(one.slice(10) + '\n' + two.slice(0, 30)), 20);
    setTimeout(() => { w.write(two.slice(30) + '\n\n'); w.end(); }, 40);
  });
  t.after(() => srv.close());
  const c = createClient({ server: srv.url });
  t.after(() => c.close());
  const events: WatchEvent[] = [];
  let ended: Error | undefined | 'pending' = 'pending';
  c.watch('/api/v1/configmaps', { resourceVersion: '1' }, e => events.push(e), err => { ended = err; });
  await until(() => ended !== 'pending', 3000, 'watch end');
  assert.equal(ended, undefined, 'a clean end reports no error');
  assert.deepEqual(events.map(e => [e.type, e.object.metadata.resourceVersion]), [['ADDED', '2'], ['MODIFIED', '3']]);
  assert.equal(events[1]!.object.data.k, 'ü');
  assert.equal(srv.calls[0]!.query.get('watch'), 'true');

  let failure: unknown;
  c.watch('/api/v1/configmaps', { resourceVersion: 'old' }, () => {}, err => { failure = err; });
  await until(() => failure !== undefined, 3000, 'watch failure');
  assert.ok(failure instanceof ApiError && isGone(failure));
});

test('discovery: namespaced resources of core and preferred group versions, without subresources', async t => {
  const docs: Record<string, unknown> = {
    '/apis': { groups: [{ name: 'apps', preferredVersion: { version: 'v1' }, versions: [{ version: 'v1' }] }, { name: 'broken.io', preferredVersion: { version: 'v2' } }] },
    '/api/v1': { resources: [
      { name: 'pods', namespaced: true, verbs: ['list', 'delete'] }, { name: 'pods/status', namespaced: true, verbs: ['get'] },
      { name: 'nodes', namespaced: false, verbs: ['list'] },
    ] },
    '/apis/apps/v1': { resources: [{ name: 'deployments', namespaced: true, verbs: ['list', 'deletecollection'] }] },
  };
  const srv = await startFakeServer((call, res) => (docs[call.path] ? sendJSON(res, 200, docs[call.path]) : sendJSON(res, 503, statusBody(503, 'ServiceUnavailable', 'down'))));
  t.after(() => srv.close());
  const c = createClient({ server: srv.url });
  t.after(() => c.close());
  const failed: string[] = [];
  const found = await discoverNamespacedResources(c, { onError: gv => failed.push(gv) });
  assert.deepEqual(found, [
    { group: '', version: 'v1', resource: 'pods', verbs: ['list', 'delete'] },
    { group: 'apps', version: 'v1', resource: 'deployments', verbs: ['list', 'deletecollection'] },
  ]);
  assert.deepEqual(failed, ['broken.io/v2']);
  await assert.rejects(discoverNamespacedResources(c), ApiError);
});

test('a GET on a keep-alive connection the server dropped is sent again once', async t => {
  const served = new WeakSet<object>();
  let drops = 0;
  const srv = await startFakeServer((_call, res) => {
    const sock = res.socket!;
    // the second request on a connection finds it closed under it
    if (served.has(sock)) { drops++; return void sock.destroy(); }
    served.add(sock);
    sendJSON(res, 200, { n: 1 });
  });
  t.after(() => srv.close());
  const c = createClient({ server: srv.url });
  t.after(() => c.close());
  await c.get('/a');
  assert.deepEqual(await c.get('/b'), { n: 1 });
  assert.equal(drops, 1);
  // a POST is not repeated: it may have been acted on; nor a DELETE (a server gone after acting
  // on it would have the second answer 404 for the caller's own delete)
  await assert.rejects(c.create('/c', {}), /socket hang up|ECONNRESET/);
  await c.get('/d');
  await assert.rejects(c.delete('/e'), /socket hang up|ECONNRESET/);
  assert.equal(srv.callsTo('DELETE', '/e').length, 1);
});
