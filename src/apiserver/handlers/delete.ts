import { badRequest, methodNotAllowed } from '../../api/status.ts';
import { isObject } from '../../api/object.ts';
import type { DeleteOptions } from '../../registry/store.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { decodeOptionalBody } from '../request-object.ts';
import { dryRun, intParam } from './options.ts';

/** DeleteOptions from the body (kubectl sends one) and the query */
export async function deleteOptions(ctx: RequestContext): Promise<DeleteOptions> {
  const body = await decodeOptionalBody(ctx);
  const opts: DeleteOptions = { dryRun: dryRun(ctx, 'DeleteOptions') };
  if (body !== undefined) {
    if (!isObject(body)) throw badRequest('DeleteOptions must be an object');
    if (Array.isArray(body.dryRun) && body.dryRun.length) {
      if (body.dryRun.some(v => v !== 'All')) throw badRequest(`DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ${JSON.stringify(body.dryRun)}: supported values: "All"`);
      opts.dryRun = true;
    }
    if (typeof body.gracePeriodSeconds === 'number') opts.gracePeriodSeconds = body.gracePeriodSeconds;
    if (typeof body.propagationPolicy === 'string') opts.propagationPolicy = body.propagationPolicy;
    if (isObject(body.preconditions)) opts.preconditions = body.preconditions as DeleteOptions['preconditions'];
  }
  const grace = intParam(ctx, 'gracePeriodSeconds');
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  const pp = ctx.query.get('propagationPolicy');
  if (pp) opts.propagationPolicy = pp;
  if (opts.propagationPolicy && !['Orphan', 'Background', 'Foreground'].includes(opts.propagationPolicy)) {
    throw badRequest(`DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${opts.propagationPolicy}": supported values: "Foreground", "Background", "Orphan", "nil"`);
  }
  return opts;
}

export async function handleDelete(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  if (ctx.info.subresource) throw methodNotAllowed();
  const opts = await deleteOptions(ctx);
  const { object } = await deps.store.delete(info, ctx.info.namespace, ctx.info.name!, opts);
  if (deps.store.strategy(info).returnDeletedObject) return sendObject(ctx, 200, object);
  const details: Record<string, string> = { name: object.metadata.name!, kind: info.resource };
  if (info.group) details.group = info.group;
  if (object.metadata.uid) details.uid = object.metadata.uid;
  sendObject(ctx, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details } as never);
}
