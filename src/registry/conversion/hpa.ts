// HorizontalPodAutoscaler between autoscaling/v1 and autoscaling/v2 (the storage version), as
// Kubernetes converts it: v1 holds a CPU utilization target and current value; every other
// metric, the current metrics, the conditions and the behavior ride on v1 objects in
// `autoscaling.alpha.kubernetes.io/*` annotations (metrics in the older v1 metric shape), so a
// v2 object read and written back through v1 loses nothing.

type Json = Record<string, any>;

const prefix = 'autoscaling.alpha.kubernetes.io/';
const annotations = { metrics: `${prefix}metrics`, currentMetrics: `${prefix}current-metrics`, conditions: `${prefix}conditions`, behavior: `${prefix}behavior` };

const defined = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

// ---- metric specs: v2 ↔ the v1 annotation shape -----------------------------------------------

function specToV1(m: Json): Json {
  const t = (m.resource ?? m.containerResource ?? m.object ?? m.pods ?? m.external)?.target ?? {};
  switch (m.type) {
    case 'Resource': return { type: m.type, resource: defined({ name: m.resource.name, targetAverageUtilization: t.averageUtilization, targetAverageValue: t.averageValue }) };
    case 'ContainerResource': return { type: m.type, containerResource: defined({ name: m.containerResource.name, container: m.containerResource.container, targetAverageUtilization: t.averageUtilization, targetAverageValue: t.averageValue }) };
    case 'Pods': return { type: m.type, pods: defined({ metricName: m.pods.metric?.name, targetAverageValue: t.averageValue, selector: m.pods.metric?.selector }) };
    case 'Object': return { type: m.type, object: defined({ target: m.object.describedObject, metricName: m.object.metric?.name, targetValue: t.value, selector: m.object.metric?.selector, averageValue: t.averageValue }) };
    case 'External': return { type: m.type, external: defined({ metricName: m.external.metric?.name, metricSelector: m.external.metric?.selector, targetValue: t.value, targetAverageValue: t.averageValue }) };
    default: return { type: m.type };
  }
}

function specToV2(m: Json): Json {
  switch (m.type) {
    case 'Resource': case 'ContainerResource': {
      const s = m.type === 'Resource' ? m.resource : m.containerResource;
      const target = defined({ type: s.targetAverageUtilization === undefined ? 'AverageValue' : 'Utilization', averageValue: s.targetAverageValue, averageUtilization: s.targetAverageUtilization });
      const out = defined({ name: s.name, container: s.container, target });
      return m.type === 'Resource' ? { type: m.type, resource: out } : { type: m.type, containerResource: out };
    }
    case 'Pods': return { type: m.type, pods: { metric: defined({ name: m.pods.metricName, selector: m.pods.selector }), target: defined({ type: 'AverageValue', averageValue: m.pods.targetAverageValue }) } };
    case 'Object': return {
      type: m.type,
      object: {
        describedObject: m.object.target,
        metric: defined({ name: m.object.metricName, selector: m.object.selector }),
        target: defined({ type: m.object.averageValue === undefined ? 'Value' : 'AverageValue', value: m.object.targetValue, averageValue: m.object.averageValue }),
      },
    };
    case 'External': return {
      type: m.type,
      external: {
        metric: defined({ name: m.external.metricName, selector: m.external.metricSelector }),
        target: defined({ type: m.external.targetValue === undefined ? 'AverageValue' : 'Value', value: m.external.targetValue, averageValue: m.external.targetAverageValue }),
      },
    };
    default: return { type: m.type };
  }
}

// ---- metric statuses ----------------------------------------------------------------------------

function statusToV1(m: Json): Json {
  const c = (m.resource ?? m.containerResource ?? m.object ?? m.pods ?? m.external)?.current ?? {};
  switch (m.type) {
    case 'Resource': return { type: m.type, resource: defined({ name: m.resource.name, currentAverageUtilization: c.averageUtilization, currentAverageValue: c.averageValue }) };
    case 'ContainerResource': return { type: m.type, containerResource: defined({ name: m.containerResource.name, container: m.containerResource.container, currentAverageUtilization: c.averageUtilization, currentAverageValue: c.averageValue }) };
    case 'Pods': return { type: m.type, pods: defined({ metricName: m.pods.metric?.name, currentAverageValue: c.averageValue, selector: m.pods.metric?.selector }) };
    case 'Object': return { type: m.type, object: defined({ target: m.object.describedObject, metricName: m.object.metric?.name, currentValue: c.value, selector: m.object.metric?.selector, averageValue: c.averageValue }) };
    case 'External': return { type: m.type, external: defined({ metricName: m.external.metric?.name, metricSelector: m.external.metric?.selector, currentValue: c.value, currentAverageValue: c.averageValue }) };
    default: return { type: m.type };
  }
}

function statusToV2(m: Json): Json {
  switch (m.type) {
    case 'Resource': case 'ContainerResource': {
      const s = m.type === 'Resource' ? m.resource : m.containerResource;
      const out = defined({ name: s.name, container: s.container, current: defined({ averageValue: s.currentAverageValue, averageUtilization: s.currentAverageUtilization }) });
      return m.type === 'Resource' ? { type: m.type, resource: out } : { type: m.type, containerResource: out };
    }
    case 'Pods': return { type: m.type, pods: { metric: defined({ name: m.pods.metricName, selector: m.pods.selector }), current: defined({ averageValue: m.pods.currentAverageValue }) } };
    case 'Object': return { type: m.type, object: { describedObject: m.object.target, metric: defined({ name: m.object.metricName, selector: m.object.selector }), current: defined({ value: m.object.currentValue, averageValue: m.object.averageValue }) } };
    case 'External': return { type: m.type, external: { metric: defined({ name: m.external.metricName, selector: m.external.metricSelector }), current: defined({ value: m.external.currentValue, averageValue: m.external.currentAverageValue }) } };
    default: return { type: m.type };
  }
}

const isCpuUtilization = (m: Json) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource?.target?.averageUtilization !== undefined;

function readAnnotation(meta: Json, key: string): unknown[] | Json | undefined {
  const text = meta.annotations?.[key];
  if (typeof text !== 'string') return undefined;
  try { return JSON.parse(text); } catch { return undefined; }
}

/** a v2 object as autoscaling/v1 */
export function hpaToV1(obj: Json): Json {
  const spec = obj.spec ?? {};
  const status = obj.status;
  const meta = { ...obj.metadata, annotations: { ...obj.metadata?.annotations } };
  const metrics: Json[] = spec.metrics ?? [];
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter(m => m !== cpu).map(specToV1);
  if (others.length) meta.annotations[annotations.metrics] = JSON.stringify(others);
  if (status?.currentMetrics?.length) meta.annotations[annotations.currentMetrics] = JSON.stringify(status.currentMetrics.map(statusToV1));
  if (status?.conditions?.length) meta.annotations[annotations.conditions] = JSON.stringify(status.conditions);
  if (spec.behavior) meta.annotations[annotations.behavior] = JSON.stringify(spec.behavior);
  if (Object.keys(meta.annotations).length === 0) delete meta.annotations;
  const currentCpu = (status?.currentMetrics as Json[] | undefined)?.find(m => m.type === 'Resource' && m.resource?.name === 'cpu')?.resource?.current?.averageUtilization;
  const out: Json = {
    ...obj,
    apiVersion: 'autoscaling/v1',
    metadata: meta,
    spec: defined({ scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas, targetCPUUtilizationPercentage: cpu?.resource.target.averageUtilization }),
  };
  if (status) {
    out.status = defined({
      observedGeneration: status.observedGeneration, lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas, desiredReplicas: status.desiredReplicas, currentCPUUtilizationPercentage: currentCpu,
    });
  }
  return out;
}

/** a v1 object as autoscaling/v2, taking back what the annotations hold */
export function hpaToV2(obj: Json): Json {
  const spec = obj.spec ?? {};
  const status = obj.status;
  const meta: Json = { ...obj.metadata };
  const metrics = ((readAnnotation(meta, annotations.metrics) as Json[] | undefined) ?? []).map(specToV2);
  if (spec.targetCPUUtilizationPercentage !== undefined) {
    metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } });
  }
  const behavior = readAnnotation(meta, annotations.behavior) as Json | undefined;
  const currentMetrics = ((readAnnotation(meta, annotations.currentMetrics) as Json[] | undefined) ?? []).map(statusToV2);
  if (status?.currentCPUUtilizationPercentage !== undefined && !currentMetrics.some(m => m.type === 'Resource' && m.resource?.name === 'cpu')) {
    currentMetrics.push({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } });
  }
  const conditions = readAnnotation(meta, annotations.conditions) as Json[] | undefined;
  if (meta.annotations) {
    const rest = Object.fromEntries(Object.entries(meta.annotations as Json).filter(([k]) => !Object.values(annotations).includes(k)));
    if (Object.keys(rest).length) meta.annotations = rest; else delete meta.annotations;
  }
  const out: Json = {
    ...obj,
    apiVersion: 'autoscaling/v2',
    metadata: meta,
    spec: defined({ scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas, metrics: metrics.length ? metrics : undefined, behavior }),
  };
  if (status) {
    out.status = defined({
      observedGeneration: status.observedGeneration, lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas, desiredReplicas: status.desiredReplicas,
      currentMetrics: currentMetrics.length ? currentMetrics : undefined, conditions,
    });
  }
  return out;
}
