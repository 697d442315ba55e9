import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Informer } from '../../../src/client/informer.ts';
import { byController } from '../../../src/controllers/controller-index.ts';
import { byNamespace } from '../../../src/client/namespace-index.ts';

/** just the event side of an informer, driven by the test */
function events<T>() {
  const handlers: Record<string, ((...a: T[]) => void)[]> = { add: [], update: [], delete: [] };
  const inf = { on(e: string, fn: (...a: T[]) => void) { handlers[e]!.push(fn); return inf; } } as unknown as Informer<T>;
  return { inf, emit: (e: string, ...a: T[]) => handlers[e]!.forEach(fn => fn(...a)) };
}

const pod = (name: string, ns: string, controller?: string) => ({
  metadata: { name, namespace: ns, ...(controller ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: controller, controller: true }] } : {}) },
});
const names = (ps: { metadata: { name: string } }[]) => ps.map(p => p.metadata.name).sort();

test('dependents are found by their controller and orphans by namespace, as they are adopted, released and deleted', () => {
  const { inf, emit } = events<ReturnType<typeof pod>>();
  const index = byController(inf);
  const a = pod('a', 'ns1', 'u1'), b = pod('b', 'ns1'), c = pod('c', 'ns2'), d = pod('d', 'ns1', 'u2');
  for (const p of [a, b, c, d]) emit('add', p);
  assert.deepEqual(names(index.controlledBy('u1')), ['a']);
  assert.deepEqual(names(index.orphansIn('ns1')), ['b']);
  assert.deepEqual(names(index.orphansIn('ns2')), ['c']);
  assert.deepEqual(index.controlledBy(undefined), []);
  // b adopted by u1, a released
  const b2 = pod('b', 'ns1', 'u1'), a2 = pod('a', 'ns1');
  emit('update', b, b2);
  emit('update', a, a2);
  assert.deepEqual(names(index.controlledBy('u1')), ['b']);
  assert.deepEqual(names(index.orphansIn('ns1')), ['a']);
  emit('delete', b2);
  assert.deepEqual(index.controlledBy('u1'), []);
  assert.deepEqual(names(index.controlledBy('u2')), ['d']);
  // a controller reference that is not a controller's does not count
  const e = { metadata: { name: 'e', namespace: 'ns1', ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u3' }] } };
  emit('add', e as any);
  assert.deepEqual(names(index.orphansIn('ns1')), ['a', 'e']);
});

test('by namespace: an update replaces the object, a delete removes it', () => {
  const { inf, emit } = events<{ metadata: { name: string; namespace: string; v?: number } }>();
  const inNs = byNamespace(inf);
  const x = { metadata: { name: 'x', namespace: 'n' } };
  emit('add', x);
  const x2 = { metadata: { name: 'x', namespace: 'n', v: 2 } };
  emit('update', x, x2);
  assert.deepEqual(inNs('n'), [x2]);
  emit('delete', x2);
  assert.deepEqual(inNs('n'), []);
});
