// Cell formatting shared by printers: ages as kubectl shows them, and small accessors.

import type { KubeObject } from '../../api/object.ts';
import { formatLabelSelector, labelSelectorFromObject } from '../../api/selectors/label.ts';

/** a duration as Kubernetes prints it: 45s, 3m2s, 10m, 5h3m, 20h, 2d3h, 30d, 2y10d */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
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

export function age(ts: unknown, now: Date): string {
  if (typeof ts !== 'string' || !ts) return '<unknown>';
  const t = Date.parse(ts);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now.getTime() - t);
}

export function objAge(obj: KubeObject, now: Date): string {
  return age(obj.metadata.creationTimestamp, now);
}

type Obj = Record<string, any>;

export function spec(obj: KubeObject): Obj { return (obj.spec ?? {}) as Obj; }
export function status(obj: KubeObject): Obj { return (obj.status ?? {}) as Obj; }

export function orNone(v: unknown): string {
  return v === undefined || v === null || v === '' ? '<none>' : String(v);
}

export function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** containers and images of a pod template, comma-joined */
export function templateContainers(template: Obj | undefined): [string, string] {
  const cs = (template?.spec?.containers ?? []) as Obj[];
  return [cs.map(c => c.name).join(','), cs.map(c => c.image).join(',')];
}

export function selectorString(sel: Obj | undefined): string {
  if (!sel) return '<none>';
  const text = formatLabelSelector(labelSelectorFromObject(sel));
  return text || '<none>';
}

export function mapSelector(sel: Record<string, string> | undefined): string {
  const e = Object.entries(sel ?? {});
  return e.length ? e.map(([k, v]) => `${k}=${v}`).join(',') : '<none>';
}
