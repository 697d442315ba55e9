import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { readObject } from '../request-object.ts';
import { dryRun } from './options.ts';
import { checkTypeMeta } from './type-meta.ts';
import { methodNotAllowed } from '../../api/status.ts';
import { admission, fieldValidation, managerName } from './write-options.ts';

export async function handleUpdate(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const ns = ctx.info.namespace;
  const name = ctx.info.name!;
  const sub = ctx.subresource;
  if (sub && !sub.view) throw methodNotAllowed();
  const validation = fieldValidation(ctx, 'UpdateOptions');
  const manager = managerName(ctx, 'UpdateOptions');
  const isDryRun = dryRun(ctx);
  const opts = { dryRun: isDryRun, subresource: sub?.name, manager, ...admission(ctx, deps, 'UpdateOptions', isDryRun, manager) };
  const kind = sub ? sub.kind(info) : info;
  const body = await readObject(ctx, { definition: kind.definition!, kind: kind.kind, version: kind.version, fieldValidation: validation },
    o => checkTypeMeta(ctx, info, o, kind.kind, kind.group));
  const view = sub?.view;
  if (view?.write) {
    // the body is a view of the object (Scale): written back into the stored object
    const out = await deps.registry.modify(info, ns, name, cur => view.write!(info, cur, body), opts);
    return sendObject(ctx, 200, view.read ? view.read(info, out) : out);
  }
  const { object, created } = await deps.registry.update(info, ns, name, body, opts);
  sendObject(ctx, created ? 201 : 200, object);
}
