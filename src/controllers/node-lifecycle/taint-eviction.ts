// The taint eviction controller: pods on a node with NoExecute taints they do not tolerate are
// deleted at once; pods that tolerate them for tolerationSeconds are deleted when that runs
// out (unless the taint goes first). Before deleting, the pod is marked with a DisruptionTarget
// condition and an event says why, as Kubernetes does.

import type { Logger } from '../../api/log.ts';
import { isNotFound } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { createInformer, objectKey, type Informer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { evictionTime } from './tolerations.ts';
import { podInformer, type ViewedPod } from '../pod-view.ts';
import type { CoreV1Node } from '../../schema/generated/types.ts';
import type { Served } from '../../schema/served.ts';
import { rfc3339 } from '../../api/time.ts';

type Node = Served<CoreV1Node>;
type Pod = ViewedPod;

/** `pods`: a pod informer shared with other controllers (podInformer's view); by default its own */
export function startTaintEvictionController(client: Client, log: Logger, opts: { now?: () => number; pods?: Informer<Pod> } = {}): { stop(): void } {
  const now = opts.now ?? Date.now;
  const events = eventRecorder(client, 'taint-eviction-controller', log);
  const nodes = createInformer<Node>(client, '/api/v1/nodes', { log });
  const pods: Informer<Pod> = opts.pods ?? podInformer(client, log);
  const scheduled = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  // pods whose eviction has begun: the DisruptionTarget condition it writes comes back as an
  // update before the deletion does, and must not start a second eviction (and a second event)
  const evicting = new Set<string>();

  function cancel(key: string): void {
    const s = scheduled.get(key);
    if (s) { clearTimeout(s.timer); scheduled.delete(key); }
  }

  async function evict(key: string): Promise<void> {
    scheduled.delete(key);
    const pod = pods.get(key);
    if (!pod || pod.metadata.deletionTimestamp || evicting.has(key)) return;
    // look again: the taint or toleration may have changed since the timer was set
    const at = evictionTime(nodes.get(pod.spec?.nodeName ?? '')?.spec?.taints, pod.spec?.tolerations, now());
    if (at === 'never' || at > now()) return consider(pod);
    const path = `/api/v1/namespaces/${encodeURIComponent(pod.metadata.namespace)}/pods/${encodeURIComponent(pod.metadata.name)}`;
    evicting.add(key);
    try {
      const condition = { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint', lastTransitionTime: rfc3339(now()) };
      await client.patch(`${path}/status`, { status: { conditions: [condition] } }, 'application/strategic-merge-patch+json').catch(err => log.debug('DisruptionTarget condition not set', { pod: key, err: String(err) }));
      events.record({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata }, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key}`);
      await client.delete(path, { preconditions: pod.metadata.uid ? { uid: pod.metadata.uid } : undefined });
      log.info('pod evicted for a NoExecute taint', { pod: key, node: pod.spec?.nodeName });
    } catch (err) {
      if (isNotFound(err)) return;
      evicting.delete(key);
      log.warn('pod eviction failed; retrying', { pod: key, err: String((err as Error).message ?? err) });
      const timer = setTimeout(() => void evict(key), 1000);
      timer.unref();
      scheduled.set(key, { at: now() + 1000, timer });
    }
  }

  function consider(pod: Pod): void {
    const key = objectKey(pod);
    const node = pod.spec?.nodeName ? nodes.get(pod.spec.nodeName) : undefined;
    const at = pod.metadata.deletionTimestamp || !node ? 'never' : evictionTime(node.spec?.taints, pod.spec?.tolerations, now());
    const current = scheduled.get(key);
    if (evicting.has(key)) return;
    if (at === 'never') return cancel(key);
    if (current && current.at === at) return;
    cancel(key);
    const timer = setTimeout(() => void evict(key), Math.max(0, at - now()));
    timer.unref();
    scheduled.set(key, { at, timer });
  }

  const byNode = (name: string) => { for (const p of pods.list()) if (p.spec?.nodeName === name) consider(p); };
  // as Kubernetes' taint manager, a node's pods are looked at again only when its NoExecute
  // taints change: a node's status reports (every node, every few minutes) leave them alone
  const noExecute = (n: Node | undefined) => JSON.stringify((n?.spec?.taints ?? []).filter(t => t.effect === 'NoExecute'));
  nodes.on('add', n => { if (noExecute(n) !== '[]') byNode(n.metadata.name); }).on('update', (o, n) => { if (noExecute(o) !== noExecute(n)) byNode(n.metadata.name); });
  pods.on('add', consider).on('update', (_o, p) => consider(p)).on('delete', p => { cancel(objectKey(p)); evicting.delete(objectKey(p)); });
  nodes.start();
  pods.start();
  return {
    stop() {
      nodes.stop();
      if (!opts.pods) pods.stop();
      for (const key of [...scheduled.keys()]) cancel(key);
    },
  };
}
