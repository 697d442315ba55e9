import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { plainJsonRequested, sendJsonText, sendObject } from '../respond.ts';
import { getPlan } from './resource-version.ts';
import { sendSubresourceResult, subresourceCall } from './subresource.ts';

export async function handleGet(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const sub = ctx.subresource;
  if (sub?.get) return sendSubresourceResult(ctx, deps, await sub.get(subresourceCall(ctx, deps)));
  const plan = getPlan(ctx);
  if (plan.notOlderThan !== undefined) await deps.registry.awaitRevision(plan.notOlderThan);
  if (!sub && plainJsonRequested(ctx, 'object')) {
    return sendJsonText(ctx, 200, await deps.registry.getJson(info, ctx.info.namespace, ctx.info.name!));
  }
  const obj = await deps.registry.get(info, ctx.info.namespace, ctx.info.name!);
  sendObject(ctx, 200, sub?.view?.read ? sub.view.read(info, obj) : obj);
}
