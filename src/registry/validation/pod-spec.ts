// The pod spec checks users meet most often, worded as Kubernetes words them: containers present
// with unique DNS-label names and an image, ports in range with supported protocols, requests
// not above limits, and the enumerated policies. Pod templates are checked at their own path.

import { isObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { parseQuantity } from '../../api/quantity.ts';
import { dns1123Label } from '../../api/names.ts';

type Obj = Record<string, unknown>;

const protocols = ['SCTP', 'TCP', 'UDP'];

function notSupported(field: string, value: unknown, allowed: string[]): FieldError {
  return { type: 'FieldValueNotSupported', field, value, detail: `supported values: ${allowed.map(a => JSON.stringify(a)).join(', ')}` };
}

function checkPorts(c: Obj, path: string, errs: FieldError[]): void {
  if (!Array.isArray(c.ports)) return;
  const names = new Set<string>();
  c.ports.forEach((p, i) => {
    if (!isObject(p)) return;
    const at = `${path}.ports[${i}]`;
    const port = p.containerPort;
    if (port === undefined) errs.push({ type: 'FieldValueRequired', field: `${at}.containerPort` });
    else if (typeof port === 'number' && (port < 1 || port > 65535)) errs.push({ type: 'FieldValueInvalid', field: `${at}.containerPort`, value: port, detail: 'must be between 1 and 65535, inclusive' });
    if (typeof p.hostPort === 'number' && p.hostPort !== 0 && (p.hostPort < 1 || p.hostPort > 65535)) {
      errs.push({ type: 'FieldValueInvalid', field: `${at}.hostPort`, value: p.hostPort, detail: 'must be between 1 and 65535, inclusive' });
    }
    if (p.protocol !== undefined && !protocols.includes(String(p.protocol))) errs.push(notSupported(`${at}.protocol`, p.protocol, protocols));
    if (typeof p.name === 'string' && p.name) {
      if (names.has(p.name)) errs.push({ type: 'FieldValueDuplicate', field: `${at}.name`, value: p.name });
      names.add(p.name);
    }
  });
}

function checkResources(c: Obj, path: string, errs: FieldError[]): void {
  const r = isObject(c.resources) ? c.resources : undefined;
  if (!r) return;
  const requests = isObject(r.requests) ? r.requests : {};
  const limits = isObject(r.limits) ? r.limits : {};
  for (const [name, value] of Object.entries(requests)) {
    const req = parseQuantity(value);
    const lim = limits[name] === undefined ? undefined : parseQuantity(limits[name]);
    if (req !== undefined && req < 0) errs.push({ type: 'FieldValueInvalid', field: `${path}.resources.requests[${name}]`, value, detail: 'must be greater than or equal to 0' });
    if (req !== undefined && lim !== undefined && req > lim) {
      errs.push({ type: 'FieldValueInvalid', field: `${path}.resources.requests`, value, detail: `must be less than or equal to ${name} limit of ${String(limits[name])}` });
    }
  }
  for (const [name, value] of Object.entries(limits)) {
    const lim = parseQuantity(value);
    if (lim !== undefined && lim < 0) errs.push({ type: 'FieldValueInvalid', field: `${path}.resources.limits[${name}]`, value, detail: 'must be greater than or equal to 0' });
  }
}

function checkContainers(list: unknown, path: string, seen: Set<string>, errs: FieldError[]): void {
  if (!Array.isArray(list)) return;
  list.forEach((c, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(c)) return;
    const name = c.name;
    if (typeof name !== 'string' || !name) errs.push({ type: 'FieldValueRequired', field: `${at}.name` });
    else {
      const nameErr = dns1123Label(name)[0];
      if (nameErr) errs.push({ type: 'FieldValueInvalid', field: `${at}.name`, value: name, detail: nameErr });
      if (seen.has(name)) errs.push({ type: 'FieldValueDuplicate', field: `${at}.name`, value: name });
      seen.add(name);
    }
    if (typeof c.image !== 'string' || !c.image.trim()) errs.push({ type: 'FieldValueRequired', field: `${at}.image` });
    checkPorts(c, at, errs);
    checkResources(c, at, errs);
    if (c.imagePullPolicy !== undefined && !['Always', 'IfNotPresent', 'Never'].includes(String(c.imagePullPolicy))) {
      errs.push(notSupported(`${at}.imagePullPolicy`, c.imagePullPolicy, ['Always', 'IfNotPresent', 'Never']));
    }
  });
}

/** errors of a PodSpec found at `path` ('spec' for pods, 'spec.template.spec' for workloads) */
export function validatePodSpec(spec: unknown, path: string, allowedRestartPolicies = ['Always', 'OnFailure', 'Never']): FieldError[] {
  const errs: FieldError[] = [];
  const s: Obj = isObject(spec) ? spec : {};
  if (!Array.isArray(s.containers) || s.containers.length === 0) errs.push({ type: 'FieldValueRequired', field: `${path}.containers` });
  const seen = new Set<string>();
  checkContainers(s.containers, `${path}.containers`, seen, errs);
  checkContainers(s.initContainers, `${path}.initContainers`, seen, errs);
  if (s.restartPolicy !== undefined && !allowedRestartPolicies.includes(String(s.restartPolicy))) {
    errs.push(notSupported(`${path}.restartPolicy`, s.restartPolicy, allowedRestartPolicies));
  }
  const dnsPolicies = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'];
  if (s.dnsPolicy !== undefined && !dnsPolicies.includes(String(s.dnsPolicy))) errs.push(notSupported(`${path}.dnsPolicy`, s.dnsPolicy, dnsPolicies));
  // a negative terminationGracePeriodSeconds is no error, as in Kubernetes: a pod's becomes 1 on
  // the way in (../core/pods.ts), a template's is warned of (../warnings/pod-spec.ts)
  if (Array.isArray(s.volumes)) {
    const names = new Set<string>();
    s.volumes.forEach((v, i) => {
      if (!isObject(v)) return;
      if (typeof v.name !== 'string' || !v.name) errs.push({ type: 'FieldValueRequired', field: `${path}.volumes[${i}].name` });
      else if (names.has(v.name)) errs.push({ type: 'FieldValueDuplicate', field: `${path}.volumes[${i}].name`, value: v.name });
      else names.add(v.name);
    });
  }
  return errs;
}
