// The template generation of a DaemonSet, which kube-apiserver's strategy still keeps (1 at
// creation, one more at each change of the template) and apps/v1 shows as the annotation
// deprecated.daemonset.template.generation; the daemon controller labels its pods with it.

import { jsonEqual, type KubeObject } from '../../api/object.ts';

export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

type DaemonSetLike = KubeObject & { spec?: object };

function generationOf(obj: DaemonSetLike): number {
  const n = Number(obj.metadata?.annotations?.[templateGenerationAnnotation]);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

function setGeneration(obj: DaemonSetLike, n: number): void {
  const meta = (obj.metadata ??= {});
  meta.annotations = { ...meta.annotations, [templateGenerationAnnotation]: String(n) };
}

const templateOf = (obj: DaemonSetLike): unknown => (obj.spec as { template?: unknown } | undefined)?.template;

export function templateGenerationOnCreate(obj: DaemonSetLike): void {
  setGeneration(obj, 1);
}

export function templateGenerationOnUpdate(obj: DaemonSetLike, old: DaemonSetLike): void {
  const before = generationOf(old) || 1;
  setGeneration(obj, jsonEqual(templateOf(obj), templateOf(old)) ? before : before + 1);
}
