// The Scale view of a custom resource, through the paths its CRD version names
// (specReplicasPath, statusReplicasPath, labelSelectorPath: `.spec.replicas` style paths into
// the object), as kube-apiserver's custom resource scale storage reads and writes them.

import { isObject, type KubeObject } from '../../api/object.ts';

export interface ScalePaths { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string }

function fields(path: string): string[] {
  return path.replace(/^\./, '').split('.').filter(Boolean);
}

function readPath(obj: unknown, path: string): unknown {
  let v = obj;
  for (const f of fields(path)) {
    if (!isObject(v)) return undefined;
    v = (v as Record<string, unknown>)[f];
  }
  return v;
}

/** `replicas` set at `path`, every missing object on the way made */
function writePath(obj: KubeObject, path: string, value: unknown): void {
  const fs = fields(path);
  let v = obj as Record<string, unknown>;
  for (const f of fs.slice(0, -1)) {
    if (!isObject(v[f])) v[f] = {};
    v = v[f] as Record<string, unknown>;
  }
  v[fs[fs.length - 1]!] = value;
}

export function customScaleOf(obj: KubeObject, paths: ScalePaths): { spec: number; status: number; selector?: string } {
  const spec = readPath(obj, paths.specReplicasPath);
  const status = readPath(obj, paths.statusReplicasPath);
  const selector = paths.labelSelectorPath ? readPath(obj, paths.labelSelectorPath) : undefined;
  return {
    spec: typeof spec === 'number' ? spec : 0,
    status: typeof status === 'number' ? status : 0,
    ...(typeof selector === 'string' && selector ? { selector } : {}),
  };
}

/** a copy of the object with `replicas` at the spec replicas path */
export function withCustomReplicas(obj: KubeObject, paths: ScalePaths, replicas: number): KubeObject {
  const out = structuredClone(obj);
  writePath(out, paths.specReplicasPath, replicas);
  return out;
}
