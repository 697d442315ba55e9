import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { awaitRevision, getPlan } from './resource-version.ts';
import { getScale } from './scale.ts';

export async function handleGet(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const plan = getPlan(ctx);
  if (plan.notOlderThan !== undefined) await awaitRevision(deps.store.storage, plan.notOlderThan);
  const obj = await deps.store.get(info, ctx.info.namespace, ctx.info.name!);
  if (ctx.info.subresource === 'scale') return sendObject(ctx, 200, getScale(info, obj));
  sendObject(ctx, 200, obj);
}
