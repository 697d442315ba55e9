import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { readRevision } from './resource-version.ts';
import { getScale } from './scale.ts';

export async function handleGet(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const revision = readRevision(ctx, 'get');
  const obj = await deps.store.get(info, ctx.info.namespace, ctx.info.name!, revision);
  if (ctx.info.subresource === 'scale') return sendObject(ctx, 200, getScale(info, obj));
  sendObject(ctx, 200, obj);
}
