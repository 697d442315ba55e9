import { badRequest, methodNotAllowed } from '../../api/status.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { readObject } from '../request-object.ts';
import { dryRun } from './options.ts';
import { checkTypeMeta } from './type-meta.ts';
import { admission, fieldValidation, managerName } from './write-options.ts';
import { sendSubresourceResult, subresourceCall } from './subresource.ts';
import { virtualKind } from '../virtual-kinds.ts';
import { admitSubresourceCreate } from './admit-now.ts';
import { apiVersionOf } from '../../api/object.ts';

export async function handleCreate(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const validation = fieldValidation(ctx, 'CreateOptions');
  const sub = ctx.subresource;
  if (sub?.create) {
    const kind = sub.kind(info);
    const body = await readObject(ctx, { definition: kind.definition!, kind: kind.kind, version: kind.version, fieldValidation: validation }, () => undefined);
    const write = { dryRun: dryRun(ctx), manager: managerName(ctx, 'CreateOptions') };
    // admission sees the body as the kind it decoded to (a Binding, an Eviction, a TokenRequest)
    body.apiVersion ??= apiVersionOf(kind.group, kind.version);
    body.kind ??= kind.kind;
    await admitSubresourceCreate(ctx, deps, body, write.dryRun, write.manager);
    const call = subresourceCall(ctx, deps, write);
    return sendSubresourceResult(ctx, deps, await sub.create(call, body));
  }
  if (sub || ctx.info.name !== undefined) throw methodNotAllowed();
  const manager = managerName(ctx, 'CreateOptions');
  const isDryRun = dryRun(ctx);
  const obj = await readObject(ctx, { definition: info.definition, kind: info.kind, version: info.version, fieldValidation: validation },
    o => checkTypeMeta(ctx, info, o));
  const ns = ctx.info.namespace;
  if (info.namespaced && obj.metadata.namespace && obj.metadata.namespace !== ns) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  // a question answered at once (access and token reviews): no name, nothing stored
  const virtual = virtualKind(info.group, info.resource);
  if (virtual) return sendObject(ctx, 201, await virtual(ctx, obj, deps));
  const created = await deps.registry.create(info, ns, obj, { dryRun: isDryRun, manager, ...admission(ctx, deps, 'CreateOptions', isDryRun, manager) });
  sendObject(ctx, 201, created);
}
