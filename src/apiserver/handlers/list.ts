import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { readRevision } from './resource-version.ts';
import { intParam } from './options.ts';
import { selection } from './selection.ts';

export async function handleList(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const sel = selection(ctx, info);
  const limit = intParam(ctx, 'limit');
  const list = await deps.store.list(info, ctx.info.namespace, {
    limit,
    continueToken: ctx.query.get('continue') || undefined,
    revision: readRevision(ctx, 'list'),
    filter: sel.filter,
    name: sel.name,
  });
  sendObject(ctx, 200, list);
}
