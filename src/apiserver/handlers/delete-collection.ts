import { invalid, StatusError } from '../../api/status.ts';
import { unsafeDeleteOption } from './unsafe-delete.ts';
import type { KubeObject } from '../../api/object.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { deleteOptions, withDeleteAdmission } from './delete.ts';
import { selection } from './selection.ts';
import { defaultPropagationWarning } from '../../registry/gc-policy.ts';

export async function handleDeleteCollection(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const parsed = await deleteOptions(ctx);
  // the unsafe delete is for one named object at a time (wording recalled, not checked upstream)
  if (parsed.unsafe) {
    throw invalid('DeleteOptions', 'meta.k8s.io', '', [{ type: 'FieldValueInvalid', field: unsafeDeleteOption, value: true, detail: 'is not allowed with DELETECOLLECTION, try again after removing the option' }]);
  }
  const opts = withDeleteAdmission(ctx, deps, parsed);
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
