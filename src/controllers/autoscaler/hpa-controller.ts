// The horizontal pod autoscaler controller: every 15 s (--horizontal-pod-autoscaler-sync-period)
// each autoscaling/v2 HorizontalPodAutoscaler reads its target's scale, its pods' figures from
// metrics.k8s.io, decides (plan.ts) and writes the target's scale and its own status.

import type { Logger } from '../../api/log.ts';
import { jsonEqual } from '../../api/object.ts';
import { rfc3339 } from '../../api/time.ts';
import { eventRecorder } from '../../client/events.ts';
import { objectKey } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue } from '../../client/work-queue.ts';
import type { AutoscalingV2HorizontalPodAutoscalerStatus } from '../../schema/generated/types.ts';
import type { Pod } from '../endpoints/pod-endpoint.ts';
import type { InformerFactory } from '../informer-factory.ts';
import { setHpaCondition } from './hpa-conditions.ts';
import type { MetricsRead, RawPodMetrics } from './metric-replicas.ts';
import { behaviorRules, recordScaleEvent, type AutoscalerMemory } from './normalize.ts';
import { planAutoscaling, type Hpa, type HpaEvent } from './plan.ts';
import { ScaleTargets } from '../scale-targets.ts';

export interface HpaControllerOptions {
  informers: InformerFactory;
  /** --horizontal-pod-autoscaler-sync-period */
  syncPeriodMs?: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization */
  downscaleStabilizationMs?: number;
  /** --horizontal-pod-autoscaler-tolerance */
  tolerance?: number;
  now?: () => number;
}

type Status = AutoscalingV2HorizontalPodAutoscalerStatus;

export function startHpaController(client: Client, log: Logger, opts: HpaControllerOptions): { stop(): void } {
  const now = opts.now ?? Date.now;
  const period = opts.syncPeriodMs ?? 15_000;
  const hpas = opts.informers.informer<Hpa>('/apis/autoscaling/v2/horizontalpodautoscalers');
  const pods = opts.informers.informer<Pod>('/api/v1/pods');
  const synced = Promise.all([hpas.synced(), pods.synced()]);
  const targets = new ScaleTargets(client);
  const memory = new Map<string, AutoscalerMemory>();
  // a failing autoscaler says the same each sync: one event, counted, as kube-controller-manager's recorder does
  const recorder = eventRecorder(client, 'horizontal-pod-autoscaler', log, undefined, Date.now, { correlate: true });
  const tell = (hpa: Hpa, e: HpaEvent) => recorder.record({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: hpa.metadata }, e.type, e.reason, e.message);
  const ns = (hpa: Hpa) => encodeURIComponent(hpa.metadata.namespace);

  async function writeStatus(hpa: Hpa, status: Status) {
    const clean: Status = { ...status };
    if (!clean.currentMetrics?.length) delete clean.currentMetrics;
    if (jsonEqual(clean, hpa.status ?? {})) return;
    await client.update(`/apis/autoscaling/v2/namespaces/${ns(hpa)}/horizontalpodautoscalers/${encodeURIComponent(hpa.metadata.name)}/status`,
      { ...hpa, apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', status: clean });
  }

  async function readMetrics(hpa: Hpa, selector: string | undefined): Promise<MetricsRead> {
    const needed = (hpa.spec?.metrics ?? []).some(m => m.type === 'Resource' || m.type === 'ContainerResource');
    if (!needed || !selector) return { items: [] };
    try {
      const list = await client.list<{ items?: RawPodMetrics[] }>(`/apis/metrics.k8s.io/v1beta1/namespaces/${ns(hpa)}/pods`, { labelSelector: selector });
      return { items: list.items ?? [] };
    } catch (err) {
      return { error: (err as Error).message };
    }
  }

  async function reconcile(hpa: Hpa, key: string) {
    const t = now();
    const at = rfc3339(t);
    const ref = hpa.spec?.scaleTargetRef ?? { kind: '', name: '' };
    const old: Status = hpa.status ?? { desiredReplicas: 0 };
    let got;
    try { got = await targets.get(hpa.metadata.namespace, ref); } catch (err) {
      const msg = (err as Error).message;
      tell(hpa, { type: 'Warning', reason: 'FailedGetScale', message: msg });
      await writeStatus(hpa, { ...old, conditions: setHpaCondition(old.conditions ?? [], 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${msg}`, at) });
      return;
    }
    const current = got.scale.spec?.replicas ?? 0;
    let mem = memory.get(key);
    if (!mem) memory.set(key, mem = { recommendations: [{ replicas: current, at: t }], scaleUpEvents: [], scaleDownEvents: [] });
    const plan = planAutoscaling({
      hpa, scale: { replicas: current, selector: got.scale.status?.selector }, pods: pods.list(), metrics: await readMetrics(hpa, got.scale.status?.selector),
      memory: mem, now: t, settings: { downscaleStabilizationMs: opts.downscaleStabilizationMs, tolerance: opts.tolerance },
    });
    for (const e of plan.events) tell(hpa, e);
    let conditions = plan.conditions;
    let status: Status = { currentReplicas: current, desiredReplicas: plan.desiredReplicas, lastScaleTime: old.lastScaleTime, currentMetrics: plan.currentMetrics ?? old.currentMetrics, conditions };
    if (plan.error) return writeStatus(hpa, { ...status, desiredReplicas: old.desiredReplicas ?? 0 });
    if (!plan.rescale) return writeStatus(hpa, { ...status, desiredReplicas: current });
    try {
      await client.update(got.path, { ...got.scale, apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { ...got.scale.spec, replicas: plan.desiredReplicas } });
    } catch (err) {
      const msg = (err as Error).message;
      tell(hpa, { type: 'Warning', reason: 'FailedRescale', message: `New size: ${plan.desiredReplicas}; reason: ${plan.rescaleReason}; error: ${msg}` });
      conditions = setHpaCondition(conditions, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${msg}`, at);
      await writeStatus(hpa, { ...status, desiredReplicas: old.desiredReplicas ?? 0, currentMetrics: old.currentMetrics, conditions });
      throw err;
    }
    conditions = setHpaCondition(conditions, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${plan.desiredReplicas}`, at);
    tell(hpa, { type: 'Normal', reason: 'SuccessfulRescale', message: `New size: ${plan.desiredReplicas}; reason: ${plan.rescaleReason}` });
    if (hpa.spec?.behavior) recordScaleEvent(mem, behaviorRules(hpa.spec.behavior, opts.downscaleStabilizationMs), current, plan.desiredReplicas, t);
    log.info('rescaled', { hpa: key, from: current, to: plan.desiredReplicas, reason: plan.rescaleReason });
    status = { ...status, lastScaleTime: at, conditions };
    await writeStatus(hpa, status);
  }

  async function sync(key: string) {
    await synced;
    const hpa = hpas.get(key);
    if (!hpa) {
      memory.delete(key);
      return;
    }
    // a failure is retried with backoff (at most the period); a success comes round again after the period
    await reconcile(hpa, key);
    return { requeueAfterMs: period };
  }

  const queue = createWorkQueue(sync, { concurrency: 3, baseDelayMs: 1000, maxDelayMs: period, log });
  hpas.on('add', h => queue.add(objectKey(h)))
    // status writes (ours) come back as updates: only a changed spec is looked at before its time
    .on('update', (o, h) => { if (!jsonEqual(o.spec, h.spec)) queue.add(objectKey(h)); })
    .on('delete', h => queue.add(objectKey(h)));
  return { stop() { queue.shutdown(); } };
}
