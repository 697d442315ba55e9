// pods/<name>/binding: a scheduler's decision. The pod gets spec.nodeName and a PodScheduled
// condition in one write; a pod already on a node, or being deleted, is a 409, worded as
// Kubernetes words it. The answer is a Status with code 201.

import { conflict, invalid, type FieldError } from '../../api/status.ts';
import { type KubeObject } from '../../api/object.ts';
import { validatePodSpec } from '../validation/pod-spec.ts';
import type { Subresource, SubresourceCall, SubresourceResult } from './subresource.ts';
import { rfc3339 } from '../../api/time.ts';
import { objectKey } from '../keys.ts';
import { uidPreconditionFailed } from '../storage-errors.ts';

interface Binding extends KubeObject { target?: { kind?: string; name?: string; apiVersion?: string } }

function bindingErrors(b: Binding, podName: string): FieldError[] {
  const out: FieldError[] = [];
  if (b.metadata?.name && b.metadata.name !== podName) out.push({ type: 'FieldValueInvalid', field: 'metadata.name', value: b.metadata.name, detail: 'must match the name of the pod in the URL' });
  if (!b.target?.name) out.push({ type: 'FieldValueRequired', field: 'target.name', detail: '' });
  if (b.target?.kind && b.target.kind !== 'Node') out.push({ type: 'FieldValueNotSupported', field: 'target.kind', value: b.target.kind, detail: 'supported values: "Node", "<empty>"' });
  return out;
}

async function bind(call: SubresourceCall, body: KubeObject): Promise<SubresourceResult> {
  const binding = body as Binding;
  const name = call.name;
  const errors = bindingErrors(binding, name);
  if (errors.length) throw invalid('Binding', '', binding.metadata?.name || name, errors);
  const resource = { group: '', resource: 'pods/binding' };
  await call.registry.modify(call.info, call.namespace, name, pod => {
    const spec = (pod.spec ?? {}) as { nodeName?: string };
    if (binding.metadata?.uid && binding.metadata.uid !== pod.metadata.uid) throw uidPreconditionFailed(resource, name, objectKey(call.info, call.namespace, name), binding.metadata.uid, pod.metadata.uid ?? '');
    if (pod.metadata.deletionTimestamp) throw conflict(resource, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (spec.nodeName) throw conflict(resource, name, `pod ${name} is already assigned to node "${spec.nodeName}"`);
    spec.nodeName = binding.target!.name;
    pod.spec = spec as KubeObject['spec'];
    if (binding.metadata?.annotations) pod.metadata.annotations = { ...pod.metadata.annotations, ...binding.metadata.annotations };
    const status = (pod.status ?? {}) as { conditions?: Array<Record<string, unknown>> };
    const conditions = (status.conditions ?? []).filter(c => c.type !== 'PodScheduled');
    conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(call.now()) });
    pod.status = { ...status, conditions } as KubeObject['status'];
    // no precondition on the revision read: a write to the pod meanwhile (its status, say) is
    // retried on the newer pod, as Kubernetes' binding does, rather than refused as a conflict
    delete pod.metadata.resourceVersion;
    return pod;
  }, { subresource: 'binding', dryRun: call.dryRun, manager: call.manager });
  return { type: 'object', code: 201, object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as never };
}

export const bindingSubresource: Subresource = {
  name: 'binding',
  verbs: ['create'],
  connect: false,
  kind: () => ({ group: '', version: 'v1', kind: 'Binding', definition: 'io.k8s.api.core.v1.Binding' }),
  create: bind,
  writes: {
    // the change above set spec.nodeName, the PodScheduled condition and annotations, and only those
    prepare(obj, current, strategy, ctx) {
      strategy.prepareForUpdate(obj, current, ctx);
      return obj;
    },
    // the one write that may set spec.nodeName: the pod spec's update rules do not apply
    validate: obj => validatePodSpec(obj.spec, 'spec'),
  },
};
