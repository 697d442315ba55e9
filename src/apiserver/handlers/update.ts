import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { readObject } from '../request-object.ts';
import { dryRun } from './options.ts';
import { checkTypeMeta } from './type-meta.ts';
import { applyScale, getScale, scaleDefinition } from './scale.ts';
import { methodNotAllowed } from '../../api/status.ts';
import { fieldValidation, managerName } from './write-options.ts';

export async function handleUpdate(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const ns = ctx.info.namespace;
  const name = ctx.info.name!;
  const sub = ctx.info.subresource;
  if (sub && sub !== 'status' && sub !== 'finalize' && sub !== 'scale') throw methodNotAllowed();
  const validation = fieldValidation(ctx, 'UpdateOptions');
  const manager = managerName(ctx, 'UpdateOptions');
  const opts = { dryRun: dryRun(ctx), subresource: sub, manager };
  if (sub === 'scale') {
    const body = await readObject(ctx, { definition: scaleDefinition, kind: 'Scale', version: 'v1', fieldValidation: validation },
      o => checkTypeMeta(ctx, info, o, 'Scale', 'autoscaling'));
    const out = await deps.store.modify(info, ns, name, cur => applyScale(info, cur, body), { dryRun: opts.dryRun, manager, subresource: 'scale' });
    return sendObject(ctx, 200, getScale(info, out));
  }
  const body = await readObject(ctx, { definition: info.definition, kind: info.kind, version: info.version, fieldValidation: validation },
    o => checkTypeMeta(ctx, info, o));
  const { object, created } = await deps.store.update(info, ns, name, body, opts);
  sendObject(ctx, created ? 201 : 200, object);
}
