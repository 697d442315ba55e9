import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { readObject, sendObject } from '../respond.ts';
import { dryRun } from './options.ts';
import { checkTypeMeta } from './type-meta.ts';
import { applyScale, getScale } from './scale.ts';
import { methodNotAllowed } from '../../api/status.ts';

export async function handleUpdate(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const ns = ctx.info.namespace;
  const name = ctx.info.name!;
  const sub = ctx.info.subresource;
  const opts = { dryRun: dryRun(ctx), subresource: sub };
  const body = await readObject(ctx);
  if (sub === 'scale') {
    checkTypeMeta(ctx, info, body, 'Scale', 'autoscaling');
    const out = await deps.store.modify(info, ns, name, cur => applyScale(info, cur, body), { dryRun: opts.dryRun });
    return sendObject(ctx, 200, getScale(info, out));
  }
  if (sub && sub !== 'status' && sub !== 'finalize') throw methodNotAllowed();
  checkTypeMeta(ctx, info, body);
  const { object, created } = await deps.store.update(info, ns, name, body, opts);
  sendObject(ctx, created ? 201 : 200, object);
}
