// Virtual create-only kinds: resources whose create is a question answered at once and never
// stored (SubjectAccessReview and its kin, TokenReview, SelfSubjectReview). They need no
// metadata.name; the handler gets the decoded object and returns the answered one, sent as 201
// as kube-apiserver sends it. Register one with `registerVirtualKind(group, resource, handler)`.

import type { KubeObject } from '../api/object.ts';
import type { RequestContext } from './context.ts';
import type { HandlerDeps } from './handlers/deps.ts';

export type VirtualKindHandler = (ctx: RequestContext, obj: KubeObject, deps: HandlerDeps) => Promise<KubeObject> | KubeObject;

const handlers = new Map<string, VirtualKindHandler>();

/** `group` '' is the core group; `resource` the plural (e.g. subjectaccessreviews) */
export function registerVirtualKind(group: string, resource: string, handler: VirtualKindHandler): void {
  handlers.set(`${group}/${resource}`, handler);
}

export function virtualKind(group: string, resource: string): VirtualKindHandler | undefined {
  return handlers.size ? handlers.get(`${group}/${resource}`) : undefined;
}
