import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { awaitRevision, listPlan } from './resource-version.ts';
import { intParam } from './options.ts';
import { selection } from './selection.ts';

export async function handleList(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const sel = selection(ctx, info);
  const limit = intParam(ctx, 'limit');
  const plan = listPlan(ctx);
  const wanted = plan.exact ?? plan.notOlderThan;
  if (wanted !== undefined) await awaitRevision(deps.store.storage, wanted);
  const list = await deps.store.list(info, ctx.info.namespace, {
    limit,
    continueToken: ctx.query.get('continue') || undefined,
    revision: plan.exact,
    filter: sel.filter,
    name: sel.name,
  });
  sendObject(ctx, 200, list);
}
