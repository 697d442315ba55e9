// One request's admission: its attributes made from the request, and the hooks the registry
// calls at kube-apiserver's points. A write's mutating phase runs on the body with its defaults
// and managedFields, before the store fills the system fields (uid, creationTimestamp, a
// generated name; on updates, those carried over from the stored object); its validating phase
// after the strategy's validation and before storage. A delete runs both phases on the
// stored object before it is marked or removed; a connect (exec, attach, port-forward, proxy)
// and a subresource create (binding, eviction, token) run both before the subresource acts.

import type { KubeObject } from '../../api/object.ts';
import type { WriteAdmission } from '../../registry/registry.ts';
import type { RequestContext } from '../context.ts';
import type { AdmissionChain } from './chain.ts';
import type { AdmissionAttributes, AdmissionOperation } from './types.ts';

export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

/** the request's options as the object plugins (and webhooks) see */
export function optionsObject(kind: OptionsKind, dryRun: boolean, fieldManager?: string, extra: Record<string, unknown> = {}): KubeObject {
  const o: Record<string, unknown> = { kind, apiVersion: 'meta.k8s.io/v1' };
  if (dryRun) o.dryRun = ['All'];
  if (fieldManager) o.fieldManager = fieldManager;
  return { ...o, ...extra } as unknown as KubeObject;
}

export function admissionAttributes(ctx: RequestContext, op: AdmissionOperation, parts: { object?: KubeObject; oldObject?: KubeObject; options?: KubeObject; dryRun: boolean; name?: string }): AdmissionAttributes {
  const info = ctx.resource!;
  return {
    operation: op,
    resource: info,
    subresource: ctx.subresource?.name ?? ctx.info.subresource ?? '',
    // a deletecollection across namespaces deletes each object in its own
    namespace: info.namespaced ? ctx.info.namespace ?? parts.oldObject?.metadata.namespace ?? '' : '',
    name: parts.name ?? ctx.info.name ?? '',
    object: parts.object,
    oldObject: parts.oldObject,
    options: parts.options,
    user: ctx.user ?? { name: '', groups: [] },
    dryRun: parts.dryRun,
    // a write retried on a conflict runs admission again: each warning is said once
    warn(text) { if (!ctx.warnings.includes(text)) ctx.warnings.push(text); },
    annotate(key, value) { (ctx.auditAnnotations ??= {})[key] = value; },
  };
}

/** the registry's hooks for a create, update, patch or apply */
export function writeAdmission(ctx: RequestContext, chain: AdmissionChain, kind: OptionsKind, dryRun: boolean, fieldManager?: string): WriteAdmission {
  const options = optionsObject(kind, dryRun, fieldManager);
  const attrs = (obj: KubeObject, old: KubeObject | undefined) => admissionAttributes(ctx, old ? 'UPDATE' : 'CREATE', {
    object: obj, oldObject: old, dryRun,
    // an update that creates is a create, with the create's options
    options: old || kind === 'CreateOptions' ? options : optionsObject('CreateOptions', dryRun, fieldManager),
    // a create names what its body names (nothing yet, with generateName)
    name: ctx.info.name ?? obj.metadata?.name ?? '',
  });
  return {
    mutate: (obj, old) => chain.admit(attrs(obj, old)),
    validate: (obj, old) => chain.validate(attrs(obj, old)),
  };
}

/** the registry's hook for a delete (and each object a deletecollection deletes) */
export function deleteAdmission(ctx: RequestContext, chain: AdmissionChain, dryRun: boolean, options: KubeObject): (current: KubeObject) => Promise<void> {
  return async current => {
    const a = admissionAttributes(ctx, 'DELETE', { oldObject: current, options, dryRun, name: ctx.info.name ?? current.metadata.name ?? '' });
    await chain.admit(a);
    await chain.validate(a);
  };
}

/** both phases for a request that acts at once: a connect (with its options object) or a subresource create */
export async function admitNow(ctx: RequestContext, chain: AdmissionChain, op: 'CREATE' | 'CONNECT', object: KubeObject, dryRun: boolean, options?: KubeObject): Promise<void> {
  const a = admissionAttributes(ctx, op, { object, options, dryRun });
  await chain.admit(a);
  await chain.validate(a);
}
