// PATCH: JSON patch, merge patch and strategic merge patch are applied to the stored object
// (read-modify-write, retried on conflicts); the result is checked against the schema as
// fieldValidation asks, then written like an update.

import { cborBodies, decodeCborBody } from '../request-object.ts';
import { badRequest, methodNotAllowed, unsupportedMediaType } from '../../api/status.ts';
import { handleApply } from './apply.ts';
import { isObject, type KubeObject } from '../../api/object.ts';
import { decodeBody } from '../../codec/decode.ts';
import { JsonSyntaxError } from '../../codec/json-scan.ts';
import { parseContentType, patchBodyKinds, type BodyKind } from '../../codec/media-type.ts';
import { applyMergePatch } from '../../patch/merge-patch.ts';
import { applyJsonPatch, JsonPatchError } from '../../patch/json-patch.ts';
import { nestedTooDeeply, nestsTooDeeply } from '../../codec/nesting.ts';
import { patchNotApplicable } from '../../patch/errors.ts';
import { strategicMergePatch, StrategicMergePatchError } from '../../patch/strategic/index.ts';
import { checkDecodedObject, type FieldValidation } from '../../schema/decode-checks/field-validation.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { dryRun } from './options.ts';
import { admission, checkApplyOptions, fieldValidation, managerName } from './write-options.ts';

interface PatchRequest {
  kind: BodyKind;
  patch: unknown;
  duplicates: string[];
  validation: FieldValidation;
}

function decodePatch(kind: BodyKind, raw: Buffer): { patch: unknown; duplicates: string[] } {
  if (kind === 'apply-cbor') return { patch: decodeCborBody(raw), duplicates: [] };
  try {
    const { object, duplicates } = decodeBody(raw, kind === 'apply-yaml' ? 'yaml' : 'json', { requireObject: false, duplicates: kind !== 'json-patch' });
    return { patch: object, duplicates };
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw badRequest(`error decoding patch: ${err.message}`);
    throw err;
  }
}

function applyPatchTo(req: PatchRequest, target: KubeObject, definition: string): KubeObject {
  let out: unknown;
  try {
    if (req.kind === 'json-patch') out = applyJsonPatch(target, req.patch);
    else if (req.kind === 'merge-patch') out = applyMergePatch(target, req.patch);
    else out = strategicMergePatch(target, req.patch, definition);
  } catch (err) {
    if (err instanceof JsonPatchError) throw err.decodeError ? badRequest(err.message) : patchNotApplicable(err.message);
    if (err instanceof StrategicMergePatchError) throw err.toStatusError();
    throw err;
  }
  if (!isObject(out)) throw badRequest('the patch did not produce an object');
  // a JSON patch can put a value deeper than it stood in the patch (objects and other patches cannot)
  if (req.kind === 'json-patch' && nestsTooDeeply(out)) throw nestedTooDeeply();
  return out as KubeObject;
}

/** the patched object checked against its type; unknown fields dropped or reported */
function checkPatched(ctx: RequestContext, req: PatchRequest, obj: KubeObject, definition: string, kind: string, version: string): void {
  const warnings = checkDecodedObject(obj, definition, { kind, version, fieldValidation: req.validation, duplicateFields: req.duplicates, wrap: false });
  // a retried read-modify-write checks again; say each thing once
  for (const w of warnings) if (!ctx.warnings.includes(w)) ctx.warnings.push(w);
}

export async function handlePatch(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const ns = ctx.info.namespace;
  const name = ctx.info.name!;
  const sub = ctx.subresource;
  const view = sub?.view;
  if (sub && !view) throw methodNotAllowed();
  const kind = parseContentType(String(ctx.headers['content-type'] ?? ''), patchBodyKinds, cborBodies(ctx));
  // a custom resource has no patch strategies: kube-apiserver refuses strategic merge for it
  if (info.custom && kind === 'strategic-merge-patch') throw unsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
  const apply = kind === 'apply-yaml' || kind === 'apply-cbor';
  const validation = fieldValidation(ctx, 'PatchOptions');
  const manager = managerName(ctx, 'PatchOptions');
  const force = checkApplyOptions(ctx, apply, ctx.query.get('fieldManager') || undefined);
  const isDryRun = dryRun(ctx);
  const { patch, duplicates } = decodePatch(kind, await ctx.body());
  const req: PatchRequest = { kind, patch, duplicates, validation };
  if (apply) {
    if (view && !view.apply) throw unsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
    return handleApply(ctx, deps, { config: patch, duplicates, validation, manager, force, dryRun: isDryRun });
  }
  if (kind !== 'json-patch' && !isObject(patch)) {
    throw badRequest(`error decoding patch: json: cannot unmarshal ${Array.isArray(patch) ? 'array' : typeof patch} into Go value of type map[string]interface {}`);
  }

  // a subresource with a view of its own (Scale) is patched as that view, then written back
  const target = sub ? sub.kind(info) : info;
  const out = await deps.registry.modify(info, ns, name, cur => {
    const patched = applyPatchTo(req, view?.read ? view.read(info, cur) : cur, target.definition!);
    checkPatched(ctx, req, patched, target.definition!, target.kind, target.version);
    if (view?.write) return view.write(info, cur, patched);
    // a patch that sets no resourceVersion must not turn into a precondition on the old one
    if (patched.metadata?.resourceVersion === cur.metadata.resourceVersion) {
      patched.metadata = { ...patched.metadata };
      delete patched.metadata.resourceVersion;
    }
    return patched;
  }, { dryRun: isDryRun, subresource: sub?.name, manager, ...admission(ctx, deps, 'PatchOptions', isDryRun, manager) });
  sendObject(ctx, 200, view?.read ? view.read(info, out) : out);
}
