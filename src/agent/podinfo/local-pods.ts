// The pods the pod info API serves: the agent's own view, each pod as its source gave it with
// the status the agent computed from the runtime (written to the API server or not, so the view
// outlives a lost control plane). Watchers hear of each local change once: a status computed
// again unchanged, for a pod the source has not changed, is no change.

import type { Pod, PodStatus } from '../pods/types.ts';

export interface LocalPodSource {
  pods(): Pod[];
  statusOf(uid: string): PodStatus | undefined;
  onStatus(listener: (pod: Pod, status: PodStatus) => void): () => void;
  synced(): boolean;
}

export interface LocalPods {
  synced(): boolean;
  list(): Pod[];
  get(uid: string): Pod | undefined;
  /** each changed pod, in the order the agent computed them; returns the unsubscribe */
  watch(fn: (pod: Pod) => void): () => void;
  stop(): void;
}

const withStatus = (pod: Pod, status: PodStatus | undefined): Pod => (status ? { ...pod, status } as Pod : pod);

export function localPods(source: LocalPodSource): LocalPods {
  const watchers = new Set<(pod: Pod) => void>();
  /** per pod, what was last announced: its resourceVersion and status */
  const announced = new Map<string, string>();
  const unsubscribe = source.onStatus((pod, status) => {
    const uid = pod.metadata.uid;
    const key = `${pod.metadata.resourceVersion ?? ''}\n${JSON.stringify(status)}`;
    if (announced.get(uid) === key) return;
    announced.set(uid, key);
    // pods gone from the agent leave their keys behind; drop them once they outnumber the living
    if (announced.size > 2 * source.pods().length + 64) {
      const live = new Set(source.pods().map(p => p.metadata.uid));
      for (const k of announced.keys()) if (!live.has(k) && k !== uid) announced.delete(k);
    }
    const local = withStatus(pod, status);
    for (const w of watchers) w(local);
  });
  return {
    synced: () => source.synced(),
    list: () => source.pods().map(p => withStatus(p, source.statusOf(p.metadata.uid))),
    get(uid) {
      const p = source.pods().find(x => x.metadata.uid === uid);
      return p && withStatus(p, source.statusOf(uid));
    },
    watch(fn) {
      watchers.add(fn);
      return () => watchers.delete(fn);
    },
    stop() {
      unsubscribe();
      watchers.clear();
    },
  };
}
