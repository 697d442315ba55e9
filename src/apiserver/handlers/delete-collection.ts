import { StatusError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { deleteOptions, withDeleteAdmission } from './delete.ts';
import { selection } from './selection.ts';
import { defaultPropagationWarning } from '../../registry/gc-policy.ts';

export async function handleDeleteCollection(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const opts = withDeleteAdmission(ctx, deps, await deleteOptions(ctx));
  const warning = defaultPropagationWarning(info, opts);
  if (warning) ctx.warnings.push(warning);
  const sel = selection(ctx, info);
  const list = await deps.registry.list(info, ctx.info.namespace, { filter: sel.filter, name: sel.name, index: sel.index });
  const deleted: KubeObject[] = [];
  for (const item of list.items) {
    try {
      const { object } = await deps.registry.delete(info, item.metadata.namespace, item.metadata.name!, opts);
      deleted.push(object);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) continue; // gone meanwhile
      throw err;
    }
  }
  sendObject(ctx, 200, { ...list, items: deleted });
}
