// Cell formatting shared by printers: ages as kubectl shows them, label and selector strings,
// "first few + N more..." lists, and small accessors for untyped objects.

import type { KubeObject } from '../../api/object.ts';
import type { CoreV1PodTemplateSpec, MetaV1LabelSelector } from '../generated/types.ts';
import { formatLabelSelector, labelSelectorFromObject } from '../../api/selectors/label.ts';


/** a duration as Kubernetes prints it: 45s, 3m2s, 10m, 5h3m, 20h, 2d3h, 30d, 2y10d */
export function humanDuration(ms: number): string {
  // a clock a second ahead still reads as "now"; Go truncates toward zero
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) { const s = seconds % 60; return s === 0 ? `${minutes}m` : `${minutes}m${s}s`; }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) { const m = minutes % 60; return m === 0 ? `${hours}h` : `${hours}h${m}m`; }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) { const h = hours % 24; return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`; }
  const days = Math.floor(hours / 24);
  if (hours < 24 * 365 * 2) return `${days}d`;
  if (hours < 24 * 365 * 8) { const d = days % 365; return d === 0 ? `${Math.floor(days / 365)}y` : `${Math.floor(days / 365)}y${d}d`; }
  return `${Math.floor(days / 365)}y`;
}

/** milliseconds of an RFC 3339 timestamp, or undefined for none */
export function timeOf(ts: unknown): number | undefined {
  if (typeof ts !== 'string' || !ts) return undefined;
  const t = Date.parse(ts);
  return Number.isNaN(t) ? undefined : t;
}

/** time since a timestamp; `<unknown>` when there is none */
export function age(ts: unknown, now: Date): string {
  const t = timeOf(ts);
  return t === undefined ? '<unknown>' : humanDuration(now.getTime() - t);
}

export function objAge(obj: KubeObject, now: Date): string {
  return age(obj.metadata?.creationTimestamp, now);
}

export function nameOf(obj: KubeObject): string {
  return obj.metadata?.name ?? '';
}

/** an object's spec or status with every field optional (a missing one reads as empty) */
export function spec<T extends { spec?: object }>(obj: T): Partial<NonNullable<T['spec']>> { return obj.spec ?? {}; }
export function status<T extends { status?: object }>(obj: T): Partial<NonNullable<T['status']>> { return obj.status ?? {}; }
export function list<T>(v: T[] | null | undefined): T[] { return v ?? []; }

export function orNone(v: unknown): string {
  return v === undefined || v === null || v === '' ? '<none>' : String(v);
}

export function orUnset(v: unknown): string {
  return v === undefined || v === null ? '<unset>' : String(v);
}

export function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** Go's rendering of an optional boolean in cells */
export function boolPtr(v: unknown): string {
  return typeof v === 'boolean' ? (v ? 'True' : 'False') : '<unset>';
}

/** containers and images of a pod template, comma-joined */
export function templateContainers(template: CoreV1PodTemplateSpec | undefined): [string, string] {
  const cs = list(template?.spec?.containers);
  return [cs.map(c => c.name ?? '').join(','), cs.map(c => c.image ?? '').join(',')];
}

/** a metav1.LabelSelector as a string; `<none>` when it selects everything or nothing */
export function selectorString(sel: MetaV1LabelSelector | undefined | null): string {
  try {
    return formatLabelSelector(labelSelectorFromObject(sel)) || '<none>';
  } catch {
    return '<error>';
  }
}

/** a plain label map as `k=v,...` in key order; `<none>` when empty */
export function formatLabels(labels: Record<string, string> | undefined | null): string {
  const keys = Object.keys(labels ?? {}).sort();
  return keys.length ? keys.map(k => `${k}=${labels![k]}`).join(',') : '<none>';
}

/** `a,b,c + 2 more...` once a list passes `max` entries */
export function withMore(shown: string[], total: number, max: number, sep = ','): string {
  const text = shown.slice(0, max).join(sep);
  return total > max ? `${text} + ${total - max} more...` : text;
}
