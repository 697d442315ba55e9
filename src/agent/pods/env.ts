// A container's environment as the kubelet builds it: envFrom sources first, then env entries in
// order (later ones win), values from the pod's own fields, ConfigMaps and Secrets, and
// `$(NAME)` references to earlier variables expanded (`$$` escapes a reference).

import { configError } from './config-errors.ts';
import { parseQuantity } from '../../api/quantity.ts';
import { kindWord, objectData, type ObjectSource } from './object-source.ts';
import type { Container, Pod } from './types.ts';
import type { CoreV1ConfigMapKeySelector, CoreV1ResourceFieldSelector, CoreV1SecretKeySelector } from '../../schema/generated/types.ts';

export interface PodFacts {
  podIPs: string[];
  hostIPs: string[];
  /** the node's allocatable resources: the value of a limit a container does not set */
  nodeAllocatable?: Record<string, unknown>;
  /** the Services' variables (service-env.ts): given unless a container declares the same name, and usable in `$(NAME)` */
  serviceEnv?: Map<string, string>;
}

/** `$(NAME)` replaced by its value when defined; `$$(NAME)` stays literally `$(NAME)` */
export function expandReferences(text: string, vars: Map<string, string>): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '$' || i + 1 >= text.length) { out += ch; continue; }
    const next = text[i + 1];
    if (next === '$') { out += '$'; i++; continue; }
    if (next === '(') {
      const close = text.indexOf(')', i + 2);
      if (close > 0) {
        const name = text.slice(i + 2, close);
        out += vars.has(name) ? vars.get(name)! : text.slice(i, close + 1);
        i = close;
        continue;
      }
    }
    out += ch;
  }
  return out;
}

export function fieldValue(pod: Pod, path: string, facts: PodFacts): string {
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (m) return (pod.metadata[m[1] as 'labels' | 'annotations'] ?? {})[m[2]!] ?? '';
  switch (path) {
    case 'metadata.name': return pod.metadata.name;
    case 'metadata.namespace': return pod.metadata.namespace;
    case 'metadata.uid': return pod.metadata.uid;
    case 'spec.nodeName': return pod.spec.nodeName ?? '';
    case 'spec.serviceAccountName': return pod.spec.serviceAccountName ?? '';
    case 'status.podIP': return facts.podIPs[0] ?? '';
    case 'status.podIPs': return facts.podIPs.join(',');
    case 'status.hostIP': return facts.hostIPs[0] ?? '';
    case 'status.hostIPs': return facts.hostIPs.join(',');
    default: throw configError(`unsupported fieldRef path: ${path}`);
  }
}

async function keyRef(src: ObjectSource, kind: 'configmaps' | 'secrets', ns: string, ref: CoreV1ConfigMapKeySelector | CoreV1SecretKeySelector): Promise<string | undefined> {
  const obj = await src.get(kind, ns, ref.name ?? '');
  if (!obj) {
    if (ref.optional) return undefined;
    throw configError(`${kindWord(kind)} "${ref.name}" not found`);
  }
  const v = objectData(kind, obj).get(ref.key);
  if (v === undefined) {
    if (ref.optional) return undefined;
    throw configError(`couldn't find key ${ref.key} in ${kind === 'configmaps' ? 'ConfigMap' : 'Secret'} ${ns}/${ref.name}`);
  }
  return v.toString();
}

export async function containerEnv(pod: Pod, c: Container, src: ObjectSource, facts: PodFacts): Promise<Array<{ key: string; value: string }>> {
  const vars = new Map<string, string>(facts.serviceEnv ?? []);
  const ns = pod.metadata.namespace;
  for (const from of c.envFrom ?? []) {
    const kind = from.configMapRef ? 'configmaps' : from.secretRef ? 'secrets' : undefined;
    if (!kind) continue;
    const ref = (from.configMapRef ?? from.secretRef)!;
    const obj = await src.get(kind, ns, ref.name ?? '');
    if (!obj) {
      if (ref.optional) continue;
      throw configError(`${kindWord(kind)} "${ref.name}" not found`);
    }
    for (const [k, v] of objectData(kind, obj)) vars.set(`${from.prefix ?? ''}${k}`, v.toString());
  }
  for (const e of c.env ?? []) {
    if (e.value !== undefined || !e.valueFrom) { vars.set(e.name, expandReferences(String(e.value ?? ''), vars)); continue; }
    const vf = e.valueFrom;
    let v: string | undefined;
    if (vf.fieldRef) v = fieldValue(pod, vf.fieldRef.fieldPath, facts);
    else if (vf.configMapKeyRef) v = await keyRef(src, 'configmaps', ns, vf.configMapKeyRef);
    else if (vf.secretKeyRef) v = await keyRef(src, 'secrets', ns, vf.secretKeyRef);
    else if (vf.resourceFieldRef) v = resourceField(c, vf.resourceFieldRef, facts.nodeAllocatable);
    if (v !== undefined) vars.set(e.name, v);
  }
  return [...vars].map(([key, value]) => ({ key, value }));
}

/**
 * a container's request or limit in units of the divisor, rounded up as the kubelet rounds it
 * (cpu in whole cores by default: 500m is "1"; memory in bytes); a limit the container does not
 * set is the node's allocatable amount, as the kubelet defaults it for the downward API
 */
export function resourceField(c: Container, ref: CoreV1ResourceFieldSelector, nodeAllocatable?: Record<string, unknown>): string {
  const [kind, name] = String(ref.resource).split('.');
  const own = c.resources?.[kind === 'limits' ? 'limits' : 'requests']?.[name!];
  const v = parseQuantity(own ?? (kind === 'limits' ? nodeAllocatable?.[name!] : undefined) ?? 0) ?? 0;
  const divisor = parseQuantity(ref.divisor ?? 1) || 1;
  // (in milli-units first for cpu, so that float error cannot push a whole number up)
  return String(name === 'cpu' ? Math.ceil(Math.round(v * 1000) / Math.round(divisor * 1000)) : Math.ceil(v / divisor));
}
