// scale: an autoscaling/v1 Scale view of a workload's replicas, which is how `kubectl scale` and
// autoscalers change them. A write through it is a write of the workload (its strategy validates
// it) that owns only spec.replicas.

import { badRequest, invalid } from '../../api/status.ts';
import { isObject, type KubeObject } from '../../api/object.ts';
import { formatLabelSelector, labelSelectorFromObject } from '../../api/selectors/label.ts';
import type { ResourceInfo } from '../../schema/types.ts';
import type { Subresource } from './subresource.ts';
import { customScaleOf, withCustomReplicas } from '../apiextensions/custom-scale.ts';

function selectorString(info: ResourceInfo, obj: KubeObject): string {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  const sel = spec.selector;
  if (!isObject(sel)) return '';
  if (info.resource === 'replicationcontrollers') {
    return Object.entries(sel).map(([k, v]) => `${k}=${v}`).join(',');
  }
  return formatLabelSelector(labelSelectorFromObject(sel));
}

function getScale(info: ResourceInfo, obj: KubeObject): KubeObject {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  const status = (obj.status ?? {}) as Record<string, unknown>;
  const m = obj.metadata;
  const meta: KubeObject['metadata'] = { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp };
  const paths = info.custom?.scale;
  if (paths) {
    // a custom resource's replicas and selector sit where its CRD says
    const s = customScaleOf(obj, paths);
    return { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: meta, spec: { replicas: s.spec }, status: { replicas: s.status, ...(s.selector ? { selector: s.selector } : {}) } };
  }
  const out: KubeObject = {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: meta,
    spec: { replicas: typeof spec.replicas === 'number' ? spec.replicas : 1 },
    status: { replicas: typeof status.replicas === 'number' ? status.replicas : 0 },
  };
  const selector = selectorString(info, obj);
  if (selector) (out.status as Record<string, unknown>).selector = selector;
  return out;
}

/** the workload with the replicas a Scale asks for */
function applyScale(info: ResourceInfo, obj: KubeObject, scale: KubeObject): KubeObject {
  const replicas = (scale.spec as Record<string, unknown> | undefined)?.replicas;
  if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas))) {
    throw badRequest(`Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${typeof replicas} into Go struct field ScaleSpec.spec.replicas of type int32`);
  }
  if (typeof replicas === 'number' && replicas < 0) {
    throw invalid('Scale', 'autoscaling', obj.metadata.name ?? '', [{ type: 'FieldValueInvalid', field: 'spec.replicas', value: replicas, detail: 'must be greater than or equal to 0' }]);
  }
  const paths = info.custom?.scale;
  const out: KubeObject = paths ? withCustomReplicas(obj, paths, replicas ?? 0) : { ...obj, spec: { ...(obj.spec as Record<string, unknown>), replicas: replicas ?? 0 } };
  out.metadata = { ...obj.metadata };
  const rv = scale.metadata?.resourceVersion;
  if (rv) out.metadata.resourceVersion = rv;
  return out;
}

export const scaleSubresource: Subresource = {
  name: 'scale',
  verbs: ['get', 'patch', 'update'],
  connect: false,
  kind: () => ({ group: 'autoscaling', version: 'v1', kind: 'Scale', definition: 'io.k8s.api.autoscaling.v1.Scale' }),
  ownedFields: [['spec', 'replicas']],
  view: { read: getScale, write: applyScale, apply: false },
};
