import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { plainJsonRequested, sendJsonText, sendObject } from '../respond.ts';
import { awaitRevision, getPlan } from './resource-version.ts';
import { getScale } from './scale.ts';
import { handlePodLog } from './pod-log.ts';

export async function handleGet(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  if (ctx.info.subresource === 'log' && info.resource === 'pods') return handlePodLog(ctx, deps);
  const plan = getPlan(ctx);
  if (plan.notOlderThan !== undefined) await awaitRevision(deps.store.storage, plan.notOlderThan);
  if (!ctx.info.subresource && plainJsonRequested(ctx, 'object')) {
    return sendJsonText(ctx, 200, await deps.store.getJson(info, ctx.info.namespace, ctx.info.name!));
  }
  const obj = await deps.store.get(info, ctx.info.namespace, ctx.info.name!);
  if (ctx.info.subresource === 'scale') return sendObject(ctx, 200, getScale(info, obj));
  sendObject(ctx, 200, obj);
}
