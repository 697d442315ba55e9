import { badRequest, invalid, type FieldError, type StatusError } from '../../api/status.ts';
import { defaultPropagationWarning } from '../../registry/gc-policy.ts';
import { notAnObjectError, typeMetaFieldError } from '../../codec/json.ts';
import { checkDecodedObject } from '../../schema/decode-checks/field-validation.ts';
import { isObject } from '../../api/object.ts';
import type { DeleteOptions } from '../../registry/store.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { decodeOptionalBody } from '../request-object.ts';
import { dryRun, intParam } from './options.ts';
import { queryBool } from '../query-params.ts';
import { handleUnsafeDelete, unsafeDeleteConflicts, unsafeDeleteGate, unsafeDeleteOption } from './unsafe-delete.ts';
import { deleteAdmission, optionsObject } from '../admission/request.ts';

const deleteOptionsDefinition = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';

function invalidDeleteOptions(field: string, value: unknown, supported: string): StatusError {
  return invalid('DeleteOptions', 'meta.k8s.io', '', [{ type: 'FieldValueNotSupported', field, value, detail: `supported values: ${supported}` }]);
}

/** DeleteOptions from the body (kubectl sends one) and the query; `unsafe`: see unsafe-delete.ts */
export async function deleteOptions(ctx: RequestContext): Promise<DeleteOptions & { unsafe?: boolean }> {
  const body = await decodeOptionalBody(ctx);
  const opts: DeleteOptions & { unsafe?: boolean } = { dryRun: dryRun(ctx, 'DeleteOptions') };
  if (body !== undefined) {
    if (!isObject(body)) throw notAnObjectError(body);
    // the body decodes as DeleteOptions or not at all: another kind is not quietly ignored
    for (const field of ['apiVersion', 'kind'] as const) if (body[field] != null && typeof body[field] !== 'string') throw typeMetaFieldError(field, body[field]);
    if (body.kind != null && body.kind !== '' && body.kind !== 'DeleteOptions') throw badRequest('decoded object cannot be converted to DeleteOptions');
    checkDecodedObject(body, deleteOptionsDefinition, { kind: 'DeleteOptions', version: 'v1', fieldValidation: 'Ignore', wrap: false });
    if (Array.isArray(body.dryRun) && body.dryRun.length) {
      if (body.dryRun.some(v => v !== 'All')) throw invalidDeleteOptions('dryRun', body.dryRun, '"All"');
      opts.dryRun = true;
    }
    if (typeof body.gracePeriodSeconds === 'number') opts.gracePeriodSeconds = body.gracePeriodSeconds;
    if (typeof body.propagationPolicy === 'string') opts.propagationPolicy = body.propagationPolicy;
    if (typeof body.orphanDependents === 'boolean') opts.orphanDependents = body.orphanDependents;
    if (isObject(body.preconditions)) opts.preconditions = body.preconditions as DeleteOptions['preconditions'];
    if (body[unsafeDeleteOption] === true) opts.unsafe = true;
  }
  const grace = intParam(ctx, 'gracePeriodSeconds');
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  const pp = ctx.query.get('propagationPolicy');
  if (pp) opts.propagationPolicy = pp;
  const orphan = queryBool(ctx.query, 'orphanDependents');
  if (orphan !== undefined) opts.orphanDependents = orphan;
  const unsafe = queryBool(ctx.query, unsafeDeleteOption);
  if (unsafe !== undefined) opts.unsafe = unsafe;
  // with its feature gate off, the option is dropped before anything looks at it
  if (!ctx.features?.enabled(unsafeDeleteGate)) delete opts.unsafe;
  const errors: FieldError[] = [];
  if (opts.orphanDependents !== undefined && opts.propagationPolicy !== undefined) {
    errors.push({ type: 'FieldValueInvalid', field: 'propagationPolicy', value: opts.propagationPolicy, detail: 'orphanDependents and deletionPropagation cannot be both set' });
  }
  if (opts.propagationPolicy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(opts.propagationPolicy)) {
    errors.push({ type: 'FieldValueNotSupported', field: 'propagationPolicy', value: opts.propagationPolicy, detail: 'supported values: "Foreground", "Background", "Orphan", "nil"' });
  }
  if (opts.unsafe) errors.push(...unsafeDeleteConflicts(opts));
  if (errors.length) throw invalid('DeleteOptions', 'meta.k8s.io', '', errors);
  return opts;
}

/** the delete's admission, run by the registry on each object it deletes */
export function withDeleteAdmission(ctx: RequestContext, deps: HandlerDeps, opts: DeleteOptions): DeleteOptions {
  if (!deps.admission) return opts;
  const extra: Record<string, unknown> = {};
  if (opts.gracePeriodSeconds !== undefined) extra.gracePeriodSeconds = opts.gracePeriodSeconds;
  if (opts.propagationPolicy !== undefined) extra.propagationPolicy = opts.propagationPolicy;
  if (opts.orphanDependents !== undefined) extra.orphanDependents = opts.orphanDependents;
  if (opts.preconditions) extra.preconditions = opts.preconditions;
  const options = optionsObject('DeleteOptions', !!opts.dryRun, undefined, extra);
  return { ...opts, admission: deleteAdmission(ctx, deps.admission, !!opts.dryRun, options) };
}

export async function handleDelete(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const parsed = await deleteOptions(ctx);
  // the unsafe delete skips admission as it skips everything that reads the object
  if (parsed.unsafe) return handleUnsafeDelete(ctx, deps);
  const opts = withDeleteAdmission(ctx, deps, parsed);
  const warning = defaultPropagationWarning(info, opts);
  if (warning) ctx.warnings.push(warning);
  const { object, deleted } = await deps.registry.delete(info, ctx.info.namespace, ctx.info.name!, opts);
  // an object that stays (graceful deletion, finalizers) is answered as it now is; 202 when the
  // request asked, the old way, for its dependents to be deleted (as kube-apiserver answers)
  if (!deleted) return sendObject(ctx, opts.orphanDependents === false ? 202 : 200, object);
  if (deps.registry.returnsDeletedObject(info)) return sendObject(ctx, 200, object);
  const details: Record<string, string> = { name: object.metadata.name!, kind: info.resource };
  if (info.group) details.group = info.group;
  if (object.metadata.uid) details.uid = object.metadata.uid;
  sendObject(ctx, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details } as never);
}
