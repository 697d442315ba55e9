// POST pods/<name>/binding: a scheduler's decision. The pod gets spec.nodeName and a
// PodScheduled condition in one write; a pod already on a node, or being deleted, is a 409,
// worded as Kubernetes words it. The answer is a Status with code 201.

import { conflict, invalid, type FieldError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { RequestContext } from '../context.ts';
import { sendObject } from '../respond.ts';
import { readObject } from '../request-object.ts';
import type { HandlerDeps } from './deps.ts';
import { dryRun } from './options.ts';
import { fieldValidation, managerName } from './write-options.ts';

interface Binding extends KubeObject { target?: { kind?: string; name?: string; apiVersion?: string } }

function bindingErrors(b: Binding, podName: string): FieldError[] {
  const out: FieldError[] = [];
  if (b.metadata?.name && b.metadata.name !== podName) out.push({ type: 'FieldValueInvalid', field: 'metadata.name', value: b.metadata.name, detail: 'must match the name of the pod in the URL' });
  if (!b.target?.name) out.push({ type: 'FieldValueRequired', field: 'target.name', detail: '' });
  if (b.target?.kind && b.target.kind !== 'Node') out.push({ type: 'FieldValueNotSupported', field: 'target.kind', value: b.target.kind, detail: 'supported values: "Node", "<empty>"' });
  return out;
}

export async function handleBinding(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const name = ctx.info.name!;
  const binding = await readObject(ctx, { definition: 'io.k8s.api.core.v1.Binding', kind: 'Binding', version: 'v1', fieldValidation: fieldValidation(ctx, 'CreateOptions') }, () => undefined) as Binding;
  const errors = bindingErrors(binding, name);
  if (errors.length) throw invalid('Binding', '', binding.metadata?.name || name, errors);
  const resource = { group: '', resource: 'pods/binding' };
  await deps.store.modify(info, ctx.info.namespace, name, pod => {
    const spec = (pod.spec ?? {}) as { nodeName?: string };
    if (binding.metadata?.uid && binding.metadata.uid !== pod.metadata.uid) throw conflict(resource, name, `Precondition failed: UID in precondition: ${binding.metadata.uid}, UID in object meta: ${pod.metadata.uid}`);
    if (pod.metadata.deletionTimestamp) throw conflict(resource, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (spec.nodeName) throw conflict(resource, name, `pod ${name} is already assigned to node "${spec.nodeName}"`);
    spec.nodeName = binding.target!.name;
    pod.spec = spec as KubeObject['spec'];
    if (binding.metadata?.annotations) pod.metadata.annotations = { ...pod.metadata.annotations, ...binding.metadata.annotations };
    const status = (pod.status ?? {}) as { conditions?: Array<Record<string, unknown>> };
    const conditions = (status.conditions ?? []).filter(c => c.type !== 'PodScheduled');
    conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') });
    pod.status = { ...status, conditions } as KubeObject['status'];
    return pod;
  }, { subresource: 'binding', dryRun: dryRun(ctx), manager: managerName(ctx, 'CreateOptions') });
  sendObject(ctx, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as never);
}
