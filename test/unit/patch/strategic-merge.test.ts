import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strategicMergePatch, StrategicMergePatchError } from '../../../src/patch/strategic/index.ts';

const podDef = 'io.k8s.api.core.v1.Pod';
const deployDef = 'io.k8s.api.apps.v1.Deployment';

function pod(spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'p' }): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}
const c = (name: string, extra: Record<string, unknown> = {}) => ({ name, image: `${name}:1`, ...extra });

test('containers merge by name; a container new to the list goes first', () => {
  const orig = pod({ containers: [c('a'), c('b')] });
  const out = strategicMergePatch(orig, { spec: { containers: [{ name: 'b', image: 'b:2' }] } }, podDef);
  assert.deepEqual((out.spec as any).containers, [c('a'), { name: 'b', image: 'b:2' }]);
  const added = strategicMergePatch(orig, { spec: { containers: [c('z')] } }, podDef);
  assert.deepEqual((added.spec as any).containers.map((x: any) => x.name), ['z', 'a', 'b']);
  assert.deepEqual((orig.spec as any).containers[1], c('b'), 'the original is not modified');
});

test('env merges by name and null removes a field of an item', () => {
  const orig = pod({ containers: [c('a', { env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] })] });
  const out = strategicMergePatch(orig, { spec: { containers: [{ name: 'a', env: [{ name: 'B', value: null, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] }] } }, podDef);
  assert.deepEqual((out.spec as any).containers[0].env, [
    { name: 'A', value: '1' },
    { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
  ]);
});

test('container ports merge by containerPort', () => {
  const orig = pod({ containers: [c('a', { ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }] })] });
  const out = strategicMergePatch(orig, { spec: { containers: [{ name: 'a', ports: [{ containerPort: 80, protocol: 'TCP' }] }] } }, podDef);
  assert.deepEqual((out.spec as any).containers[0].ports, [{ containerPort: 80, name: 'http', protocol: 'TCP' }, { containerPort: 443 }]);
});

test('volumes merge by name and $retainKeys clears the other volume sources', () => {
  const orig = pod({ containers: [c('a')], volumes: [{ name: 'v', emptyDir: {} }, { name: 'w', emptyDir: {} }] });
  const out = strategicMergePatch(orig, { spec: { volumes: [{ name: 'v', $retainKeys: ['configMap', 'name'], configMap: { name: 'cm' } }] } }, podDef);
  assert.deepEqual((out.spec as any).volumes, [{ name: 'v', configMap: { name: 'cm' } }, { name: 'w', emptyDir: {} }]);
  assert.throws(() => strategicMergePatch(orig, { spec: { volumes: [{ name: 'v', $retainKeys: ['name'], configMap: { name: 'cm' } }] } }, podDef),
    (e: any) => e instanceof StrategicMergePatchError && e.code === 400 && /retainKeys/.test(e.message));
});

test('tolerations are an atomic list: the patch replaces them', () => {
  const orig = pod({ containers: [c('a')], tolerations: [{ key: 'k1', operator: 'Exists' }] });
  const out = strategicMergePatch(orig, { spec: { tolerations: [{ key: 'k2', operator: 'Exists' }] } }, podDef);
  assert.deepEqual((out.spec as any).tolerations, [{ key: 'k2', operator: 'Exists' }]);
});

test('$patch: delete removes a list item; $patch: replace replaces the list or a map', () => {
  const orig = pod({ containers: [c('a'), c('b')] }, { name: 'p', labels: { x: '1', y: '2' } });
  const del = strategicMergePatch(orig, { spec: { containers: [{ name: 'a', $patch: 'delete' }] } }, podDef);
  assert.deepEqual((del.spec as any).containers, [c('b')]);
  const rep = strategicMergePatch(orig, { spec: { containers: [c('z'), { $patch: 'replace' }] } }, podDef);
  assert.deepEqual((rep.spec as any).containers, [c('z')]);
  const labels = strategicMergePatch(orig, { metadata: { labels: { $patch: 'replace', z: '3' } } }, podDef);
  assert.deepEqual((labels.metadata as any).labels, { z: '3' });
  const nulls = strategicMergePatch(orig, { metadata: { labels: { x: null } } }, podDef);
  assert.deepEqual((nulls.metadata as any).labels, { y: '2' });
});

test('primitive merge lists merge as sets; $deleteFromPrimitiveList removes values', () => {
  const orig = pod({ containers: [c('a')] }, { name: 'p', finalizers: ['a.io/x', 'b.io/y'] });
  const merged = strategicMergePatch(orig, { metadata: { finalizers: ['c.io/z', 'a.io/x'] } }, podDef);
  assert.deepEqual((merged.metadata as any).finalizers, ['c.io/z', 'a.io/x', 'b.io/y']);
  const removed = strategicMergePatch(orig, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a.io/x'] } }, podDef);
  assert.deepEqual((removed.metadata as any).finalizers, ['b.io/y']);
});

test('$setElementOrder puts merged items in the order kubectl apply asks for', () => {
  const orig = pod({ containers: [c('a'), c('b'), c('server-only')] });
  const out = strategicMergePatch(orig, {
    spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [{ name: 'a', image: 'a:2' }] },
  }, podDef);
  assert.deepEqual((out.spec as any).containers.map((x: any) => x.name), ['b', 'a', 'server-only']);
  assert.equal((out.spec as any).containers[1].image, 'a:2');
  assert.throws(() => strategicMergePatch(orig, {
    spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'b', image: 'x' }, { name: 'a', image: 'y' }] },
  }, podDef), /doesn't match \$setElementOrder list/);
});

test('nested structs of a Deployment merge; the pod template containers merge by name', () => {
  const orig = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [c('web'), c('side')] } } },
  };
  const out = strategicMergePatch(orig, { spec: { replicas: 3, template: { spec: { containers: [{ name: 'web', image: 'web:2' }] } } } }, deployDef);
  const spec = out.spec as any;
  assert.equal(spec.replicas, 3);
  assert.deepEqual(spec.template.spec.containers, [{ name: 'web', image: 'web:2' }, c('side')]);
  assert.deepEqual(spec.selector, { matchLabels: { app: 'd' } });
});

test('malformed patches fail with Kubernetes wording and status', () => {
  const orig = pod({ containers: [c('a')] });
  assert.throws(() => strategicMergePatch(orig, { spec: { containers: [{ image: 'x' }] } }, podDef),
    (e: any) => e.code === 400 && e.reason === 'BadRequest' && e.message === 'map: map[image:x] does not contain declared merge key: name');
  assert.throws(() => strategicMergePatch(orig, { spec: { containers: [{ name: 'a', $patch: 'bogus' }] } }, podDef),
    (e: any) => e.code === 400 && e.reason === 'BadRequest' && /unknown patch type: bogus/.test(e.message));
  assert.throws(() => strategicMergePatch(orig, [1, 2], podDef), (e: any) => e.code === 400);
  assert.throws(() => strategicMergePatch(orig, { metadata: { '$deleteFromPrimitiveList/finalizers': 'x' } }, podDef),
    (e: any) => e.code === 400 && e.message === 'invalid patch format of primitive list');
});
