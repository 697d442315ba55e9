// endpoints.kubernetes.io/last-change-trigger-time: when the earliest change that a sync
// publishes happened — a pod's Ready condition turning, or the service being created — so that
// latency from a change to its endpoints can be measured. Each service remembers the trigger
// time of every pod it last saw; pods whose time moved, and a service seen for the first time,
// count. Undefined when nothing new triggered the sync (the annotation is then left out).

import type { Pod, Service } from './pod-endpoint.ts';

const podTriggerTime = (pod: Pod) => (pod.status?.conditions ?? []).find(c => c.type === 'Ready')?.lastTransitionTime;

export class TriggerTimeTracker {
  private services = new Map<string, { created?: string; pods: Map<string, string | undefined> }>();

  compute(key: string, svc: Service, pods: Pod[]): string | undefined {
    const prior = this.services.get(key);
    const changed: string[] = [];
    if (!prior && svc.metadata.creationTimestamp) changed.push(svc.metadata.creationTimestamp);
    const seen = new Map<string, string | undefined>();
    for (const pod of pods) {
      const t = podTriggerTime(pod);
      seen.set(pod.metadata.name, t);
      if (t && prior?.pods.get(pod.metadata.name) !== t) changed.push(t);
    }
    this.services.set(key, { created: svc.metadata.creationTimestamp, pods: seen });
    if (!changed.length) return undefined;
    // times are RFC 3339 in UTC of one width per source: compare as instants
    return changed.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a));
  }

  forget(key: string): void {
    this.services.delete(key);
  }
}
