import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addDefaultTolerations, defaultTolerationSeconds } from '../../../../../src/apiserver/admission/plugins/default-toleration-seconds.ts';

test('new pods tolerate not-ready and unreachable for 300 s unless they already tolerate them', () => {
  const bare: Record<string, unknown> = {};
  addDefaultTolerations(bare);
  assert.deepEqual(bare.tolerations, [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ]);
  const own = { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] };
  addDefaultTolerations(own);
  assert.deepEqual(own.tolerations.map(t => [t.key, t.tolerationSeconds]), [['node.kubernetes.io/unreachable', 5], ['node.kubernetes.io/not-ready', 300]]);
  const all = { tolerations: [{ operator: 'Exists' }] };
  addDefaultTolerations(all);
  assert.equal(all.tolerations.length, 1);
});

test('the plugin: pods being created get them; updates, subresources and other kinds do not', () => {
  const plugin = defaultTolerationSeconds();
  const resource = (r: string) => ({ group: '', resource: r }) as never;
  const attrs = (operation: 'CREATE' | 'UPDATE', r: string, subresource = '') => ({ operation, resource: resource(r), subresource, namespace: 'ns', name: 'p', object: { metadata: {}, spec: {} } as never, user: { name: 'u', groups: [] }, dryRun: false, warn() {}, annotate() {} });
  const created = attrs('CREATE', 'pods');
  plugin.admit!(created);
  assert.equal((created.object as { spec: { tolerations: unknown[] } }).spec.tolerations.length, 2);
  for (const a of [attrs('UPDATE', 'pods'), attrs('CREATE', 'pods', 'binding'), attrs('CREATE', 'podtemplates')]) {
    plugin.admit!(a);
    assert.equal((a.object as { spec: { tolerations?: unknown[] } }).spec.tolerations, undefined);
  }
});
