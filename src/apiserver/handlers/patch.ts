import { badRequest, invalid, unsupportedMediaType, StatusError } from '../../api/status.ts';
import { isObject, type KubeObject } from '../../api/object.ts';
import { applyMergePatch } from '../../patch/merge-patch.ts';
import { applyJsonPatch, JsonPatchError } from '../../patch/json-patch.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { dryRun } from './options.ts';
import { applyScale, getScale } from './scale.ts';
import { methodNotAllowed } from '../../api/status.ts';

const patchTypes = ['application/json-patch+json', 'application/merge-patch+json'];

function patchKind(ctx: RequestContext): 'json' | 'merge' {
  const ct = String(ctx.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (ct === 'application/json-patch+json') return 'json';
  if (ct === 'application/merge-patch+json') return 'merge';
  throw unsupportedMediaType(patchTypes);
}

function applyPatch(kind: 'json' | 'merge', target: KubeObject, patch: unknown, info: { kind: string; group: string }, name: string): KubeObject {
  try {
    const out = kind === 'json' ? applyJsonPatch(target, patch) : applyMergePatch(target, patch);
    if (!isObject(out)) throw badRequest('the patch did not produce an object');
    return out as KubeObject;
  } catch (err) {
    if (err instanceof JsonPatchError) {
      if (err.testFailed) throw invalid(info.kind, info.group, name, [{ type: 'FieldValueInvalid', field: '', value: '', detail: err.message }]);
      throw new StatusError(500, 'InternalError', err.message);
    }
    throw err;
  }
}

export async function handlePatch(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const ns = ctx.info.namespace;
  const name = ctx.info.name!;
  const sub = ctx.info.subresource;
  if (sub && sub !== 'status' && sub !== 'scale') throw methodNotAllowed();
  const kind = patchKind(ctx);
  const raw = (await ctx.body()).toString('utf8');
  let patch: unknown;
  try { patch = JSON.parse(raw); } catch (err) { throw badRequest(`error decoding patch: ${(err as Error).message}`); }
  if (kind === 'merge' && !isObject(patch)) throw badRequest('error decoding patch: json: cannot unmarshal into Go value of type map[string]interface {}');
  const opts = { dryRun: dryRun(ctx), subresource: sub === 'status' ? 'status' : undefined };
  if (sub === 'scale') {
    const out = await deps.store.modify(info, ns, name, cur => {
      const scale = applyPatch(kind, getScale(info, cur), patch, { kind: 'Scale', group: 'autoscaling' }, name);
      return applyScale(info, cur, scale);
    }, { dryRun: opts.dryRun });
    return sendObject(ctx, 200, getScale(info, out));
  }
  const out = await deps.store.modify(info, ns, name, cur => {
    const patched = applyPatch(kind, cur, patch, info, name);
    // a patch that sets no resourceVersion must not turn into a precondition on the old one
    if (patched.metadata?.resourceVersion === cur.metadata.resourceVersion) {
      patched.metadata = { ...patched.metadata };
      delete patched.metadata.resourceVersion;
    }
    return patched;
  }, opts);
  sendObject(ctx, 200, out);
}
