import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { Metadata, status } from '@grpc/grpc-js';
import { localPods, type LocalPodSource } from '../../../../src/agent/podinfo/local-pods.ts';
import { decodeOnePod, decodePodList } from '../../../../src/agent/podinfo/messages.ts';
import { podsHandlers } from '../../../../src/agent/podinfo/service.ts';
import type { Pod, PodStatus } from '../../../../src/agent/pods/types.ts';

function fakeSource(pods: Pod[]) {
  const statuses = new Map<string, PodStatus>();
  const listeners = new Set<(pod: Pod, s: PodStatus) => void>();
  let synced = false;
  const source: LocalPodSource = {
    pods: () => pods,
    statusOf: uid => statuses.get(uid),
    onStatus: l => { listeners.add(l); return () => listeners.delete(l); },
    synced: () => synced,
  };
  return {
    source,
    sync() { synced = true; },
    /** the agent computed a status */
    set(pod: Pod, s: PodStatus) { statuses.set(pod.metadata.uid, s); for (const l of listeners) l(pod, s); },
  };
}

const pod = (name: string, uid: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid, resourceVersion: '5' }, spec: { containers: [{ name: 'c', image: 'busybox' }] }, status: { phase: 'Pending' } }) as Pod;

function md(mask?: string): Metadata {
  const m = new Metadata();
  if (mask !== undefined) m.set('field-mask', mask);
  return m;
}

function unary(handler: Function, request: unknown, metadata = md()): Promise<{ err: { code: number; details: string } | null; res?: Uint8Array }> {
  return new Promise(resolve => handler({ request, metadata }, (err: any, res?: Uint8Array) => resolve({ err, res })));
}

test('every method answers FAILED_PRECONDITION until the agent has synced, then serves its local statuses', async () => {
  const a = pod('a', 'uid-a'), b = pod('b', 'uid-b');
  const f = fakeSource([a, b]);
  const h = podsHandlers(localPods(f.source));
  for (const [name, req] of [['ListPods', {}], ['GetPod', { podUID: 'uid-a' }]] as const) {
    const { err } = await unary(h[name] as Function, req);
    assert.equal(err?.code, status.FAILED_PRECONDITION, name);
  }
  const call = Object.assign(new EventEmitter(), { metadata: md(), destroyed: undefined as any, write: () => true });
  call.on('error', e => { call.destroyed = e; });
  (h.WatchPods as Function)(call);
  assert.equal(call.destroyed?.code, status.FAILED_PRECONDITION);

  f.set(a, { phase: 'Running', podIP: '10.1.0.2', podIPs: [{ ip: '10.1.0.2' }] });
  f.sync();
  const list = await unary(h.ListPods as Function, {});
  assert.equal(list.err, null);
  const pods = decodePodList(list.res!) as any[];
  assert.deepEqual(pods.map(p => [p.metadata.name, p.status.phase]), [['a', 'Running'], ['b', 'Pending']], 'the status computed here wins over the API\'s');

  const masked = await unary(h.ListPods as Function, {}, md('status.phase,status.podIPs'));
  assert.deepEqual(decodePodList(masked.res!), [{ status: { phase: 'Running', podIPs: [{ ip: '10.1.0.2' }] } }, { status: { phase: 'Pending' } }]);

  const one = await unary(h.GetPod as Function, { podUID: 'uid-a' }, md('metadata.name'));
  assert.deepEqual(decodeOnePod(one.res!), { metadata: { name: 'a' } });
  const whole = await unary(h.GetPod as Function, { podUID: 'uid-b' });
  assert.equal((decodeOnePod(whole.res!) as any).spec.containers[0].image, 'busybox');
});

test('GetPod: unknown UID → NOT_FOUND, none → INVALID_ARGUMENT; a bad mask → INVALID_ARGUMENT on every method', async () => {
  const f = fakeSource([pod('a', 'uid-a')]);
  f.sync();
  const h = podsHandlers(localPods(f.source));
  assert.equal((await unary(h.GetPod as Function, { podUID: 'nope' })).err?.code, status.NOT_FOUND);
  assert.equal((await unary(h.GetPod as Function, { podUID: '' })).err?.code, status.INVALID_ARGUMENT);
  const bad = await unary(h.ListPods as Function, {}, md('status.phaze'));
  assert.equal(bad.err?.code, status.INVALID_ARGUMENT);
  assert.match(bad.err!.details, /status\.phaze/);
  assert.equal((await unary(h.GetPod as Function, { podUID: 'uid-a' }, md('spec.containers.name'))).err?.code, status.INVALID_ARGUMENT);
  const call = Object.assign(new EventEmitter(), { metadata: md('nope'), destroyed: undefined as any, write: () => true });
  call.on('error', e => { call.destroyed = e; });
  (h.WatchPods as Function)(call);
  assert.equal(call.destroyed?.code, status.INVALID_ARGUMENT);
});

function watchCall(mask?: string, writable = () => true) {
  const written: any[] = [];
  const call = Object.assign(new EventEmitter(), {
    metadata: md(mask), destroyed: undefined as any,
    write(b: Uint8Array) { written.push(decodeOnePod(b)); return writable(); },
  });
  // grpc-js ends a stream with the status of the 'error' it is given
  call.on('error', e => { call.destroyed = e; });
  return { call, written };
}

test('WatchPods: one response per local change, masked; a status computed again unchanged is no change', () => {
  const a = pod('a', 'uid-a');
  const f = fakeSource([a]);
  f.sync();
  const h = podsHandlers(localPods(f.source));
  const { call, written } = watchCall('status.phase');
  (h.WatchPods as Function)(call);
  f.set(a, { phase: 'Pending' });
  f.set(a, { phase: 'Pending' });
  f.set(a, { phase: 'Running' });
  f.set({ ...a, metadata: { ...a.metadata, resourceVersion: '6' } } as Pod, { phase: 'Running' });
  assert.deepEqual(written, [{ status: { phase: 'Pending' } }, { status: { phase: 'Running' } }, { status: { phase: 'Running' } }]);
  call.emit('cancelled');
  f.set(a, { phase: 'Succeeded' });
  assert.equal(written.length, 3, 'a cancelled watcher hears nothing more');
});

test('WatchPods: a slow reader queues up to the limit, catches up on drain, and is dropped past it without holding the agent', () => {
  const a = pod('a', 'uid-a');
  const f = fakeSource([a]);
  f.sync();
  const view = localPods(f.source);
  const h = podsHandlers(view, { maxQueued: 3 });
  let room = false;
  const slow = watchCall(undefined, () => room);
  const fast = watchCall();
  (h.WatchPods as Function)(slow.call);
  (h.WatchPods as Function)(fast.call);
  f.set(a, { phase: 'Pending', message: '1' }); // written; the stream is now full
  f.set(a, { phase: 'Pending', message: '2' });
  f.set(a, { phase: 'Pending', message: '3' });
  assert.equal(slow.written.length, 1);
  room = true;
  slow.call.emit('drain');
  assert.deepEqual(slow.written.map(p => p.status.message), ['1', '2', '3'], 'queued changes follow in order');
  room = false;
  for (let i = 4; i <= 8; i++) f.set(a, { phase: 'Pending', message: String(i) });
  assert.equal(slow.call.destroyed?.code, status.RESOURCE_EXHAUSTED, 'dropped once more than 3 wait');
  assert.equal(fast.written.length, 8, 'the other watcher got every change meanwhile');
  assert.equal(fast.call.destroyed, undefined);
});
