import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../../src/api/log.ts';
import { createClient } from '../../../../src/client/rest.ts';
import { Monitors } from '../../../../src/controllers/garbage-collector/monitors.ts';
import { deletableResources, RestMapper } from '../../../../src/controllers/garbage-collector/resources.ts';
import { beginWatch, sendJSON, startFakeServer, statusBody, until } from '../../client/fake-api-server.ts';

const core = { kind: 'APIResourceList', groupVersion: 'v1', resources: [
  { name: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: ['create', 'delete', 'get', 'list', 'watch'] },
  { name: 'events', kind: 'Event', namespaced: true, verbs: ['create', 'delete', 'get', 'list', 'watch'] },
  { name: 'bindings', kind: 'Binding', namespaced: true, verbs: ['create'] },
  { name: 'pods/status', kind: 'Pod', namespaced: true, verbs: ['get', 'list', 'watch', 'delete'] },
  { name: 'nodes', kind: 'Node', namespaced: false, verbs: ['delete', 'get', 'list', 'watch'] },
] };
const widgets = (version: string) => ({ kind: 'APIResourceList', groupVersion: `example.com/${version}`, resources: [{ name: 'widgets', kind: 'Widget', namespaced: true, verbs: ['delete', 'get', 'list', 'watch'] }] });
const exampleGroup = { name: 'example.com', versions: [{ groupVersion: 'example.com/v1', version: 'v1' }, { groupVersion: 'example.com/v1beta1', version: 'v1beta1' }], preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' } };

test('monitors follow discovery: every deletable resource in its preferred version, new ones as they appear, events never', async t => {
  let groups: unknown[] = [];
  let widgetsFail = false;
  const srv = await startFakeServer((call, res) => {
    if (call.path === '/apis') return sendJSON(res, 200, { kind: 'APIGroupList', groups });
    if (call.path === '/api/v1') return sendJSON(res, 200, core);
    if (call.path === '/apis/example.com/v1') return widgetsFail ? sendJSON(res, 503, statusBody(503, 'ServiceUnavailable', 'down')) : sendJSON(res, 200, widgets('v1'));
    if (call.path === '/apis/example.com/v1beta1') return sendJSON(res, 200, widgets('v1beta1'));
    if (call.query.get('watch')) return void beginWatch(res);
    if (call.path === '/apis/example.com/v1/widgets') {
      return sendJSON(res, 200, { kind: 'PartialObjectMetadataList', metadata: { resourceVersion: '5' }, items: [{ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'w', namespace: 'ns', uid: 'uid-w', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'uid-c' }] } }] });
    }
    sendJSON(res, 200, { metadata: { resourceVersion: '5' }, items: [] });
  });
  const client = createClient({ server: srv.url });
  const changes: string[] = [];
  const monitors = new Monitors(client, silentLogger, (type, id, meta) => changes.push(`${type} ${id.apiVersion} ${id.kind} ${id.namespace}/${id.name} owners=${meta.ownerReferences?.length ?? 0}`));
  t.after(async () => { monitors.stop(); client.close(); await srv.close(); });

  await monitors.sync();
  assert.deepEqual(monitors.resources().sort(), ['configmaps.', 'nodes.']);

  // a group served later (a CRD's, an aggregated API's) is watched at the next look
  groups = [exampleGroup];
  await monitors.sync();
  assert.deepEqual(monitors.resources().sort(), ['configmaps.', 'nodes.', 'widgets.example.com']);
  await until(() => changes.length > 0, 3000, 'the widget seen');
  assert.deepEqual(changes, ['add example.com/v1 Widget ns/w owners=1']);
  assert.equal(srv.callsTo('GET', '/apis/example.com/v1beta1/widgets').length, 0, 'one version per resource');
  assert.deepEqual(monitors.mapper.map('example.com/v1beta1', 'Widget'), { group: 'example.com', version: 'v1beta1', resource: 'widgets', namespaced: true });

  // a group whose discovery fails keeps its monitors; one that is gone loses them
  widgetsFail = true;
  await monitors.sync();
  assert.ok(monitors.resources().includes('widgets.example.com'));
  assert.ok(monitors.mapper.map('example.com/v1', 'Widget'), 'and its kinds stay mapped');
  widgetsFail = false;
  groups = [];
  await monitors.sync();
  assert.deepEqual(monitors.resources().sort(), ['configmaps.', 'nodes.']);
});

test('deletable resources and the mapping of owner references', () => {
  const all = [
    { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: ['list', 'watch', 'delete'], preferred: true },
    { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true, verbs: ['list', 'watch', 'delete'], preferred: true },
    { group: 'events.k8s.io', version: 'v1', resource: 'events', kind: 'Event', namespaced: true, verbs: ['list', 'watch', 'delete'], preferred: true },
    { group: '', version: 'v1', resource: 'componentstatuses', kind: 'ComponentStatus', namespaced: false, verbs: ['get', 'list'], preferred: true },
    { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true, verbs: ['list', 'watch', 'delete'], preferred: true },
  ];
  assert.deepEqual(deletableResources(all).map(r => r.resource), ['configmaps', 'deployments']);
  const mapper = new RestMapper(all);
  assert.deepEqual(mapper.map('apps/v1', 'Deployment'), { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true });
  assert.equal(mapper.map('apps/v2', 'Deployment'), undefined);
});
