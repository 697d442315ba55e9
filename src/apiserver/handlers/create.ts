import { badRequest, methodNotAllowed } from '../../api/status.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { readObject, sendObject } from '../respond.ts';
import { dryRun } from './options.ts';
import { checkTypeMeta } from './type-meta.ts';

export async function handleCreate(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  if (ctx.info.subresource || ctx.info.name !== undefined) throw methodNotAllowed();
  const obj = await readObject(ctx);
  checkTypeMeta(ctx, info, obj);
  const ns = ctx.info.namespace;
  if (info.namespaced && obj.metadata.namespace && obj.metadata.namespace !== ns) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const created = await deps.store.create(info, ns, obj, { dryRun: dryRun(ctx) });
  sendObject(ctx, 201, created);
}
