// Server defaults of a pod spec (also inside workload templates), as a v1.36 API server fills them.

import { isObject } from '../../api/object.ts';

type Obj = Record<string, unknown>;

function setDefault(o: Obj, key: string, value: unknown): void {
  if (o[key] === undefined) o[key] = value;
}

function imagePullPolicy(image: unknown): string {
  if (typeof image !== 'string') return 'IfNotPresent';
  if (image.includes('@')) return 'IfNotPresent';
  const lastPart = image.slice(image.lastIndexOf('/') + 1);
  const tag = lastPart.includes(':') ? lastPart.slice(lastPart.indexOf(':') + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainer(c: unknown): void {
  if (!isObject(c)) return;
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'imagePullPolicy', imagePullPolicy(c.image));
  if (c.resources === undefined) c.resources = {};
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isObject(p)) setDefault(p, 'protocol', 'TCP');
  if (Array.isArray(c.env)) {
    for (const e of c.env) {
      const fieldRef = isObject(e) && isObject(e.valueFrom) ? e.valueFrom.fieldRef : undefined;
      if (isObject(fieldRef)) setDefault(fieldRef, 'apiVersion', 'v1');
    }
  }
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const p = c[probe];
    if (!isObject(p)) continue;
    setDefault(p, 'timeoutSeconds', 1);
    setDefault(p, 'periodSeconds', 10);
    setDefault(p, 'successThreshold', 1);
    setDefault(p, 'failureThreshold', 3);
    if (isObject(p.httpGet)) setDefault(p.httpGet, 'scheme', 'HTTP'), setDefault(p.httpGet, 'path', '/');
  }
}

export function defaultPodSpec(spec: unknown): void {
  if (!isObject(spec)) return;
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'schedulerName', 'default-scheduler');
  setDefault(spec, 'enableServiceLinks', true);
  if (spec.serviceAccountName === undefined && typeof spec.serviceAccount === 'string') spec.serviceAccountName = spec.serviceAccount;
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    const cs = spec[list];
    if (Array.isArray(cs)) cs.forEach(defaultContainer);
  }
  if (Array.isArray(spec.volumes)) {
    for (const v of spec.volumes) {
      if (!isObject(v)) continue;
      for (const src of ['secret', 'configMap']) if (isObject(v[src])) setDefault(v[src] as Obj, 'defaultMode', 420);
      if (isObject(v.hostPath)) setDefault(v.hostPath, 'type', '');
      if (isObject(v.emptyDir) === false && Object.keys(v).length === 1) v.emptyDir = {};
    }
  }
}

export function defaultPodTemplate(template: unknown): void {
  if (!isObject(template)) return;
  if (!isObject(template.metadata)) template.metadata = {};
  defaultPodSpec(template.spec);
}
