// Server-side apply (application/apply-patch+yaml): the configuration is merged into the live
// object by the field-ownership rules of src/apply, or creates the object when there is none.

import { badRequest, StatusError } from '../../api/status.ts';
import { isObject, type KubeObject } from '../../api/object.ts';
import { managerContext } from '../../registry/field-managers.ts';
import { applyConfiguration } from '../../apply/index.ts';
import { checkDecodedObject, type FieldValidation } from '../../schema/decode-checks/field-validation.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { checkTypeMeta } from './type-meta.ts';
import { rfc3339 } from '../../api/time.ts';
import { admission } from './write-options.ts';

export interface ApplyRequest {
  config: unknown;
  duplicates: string[];
  validation: FieldValidation;
  manager: string;
  force: boolean;
  dryRun: boolean;
}

export async function handleApply(ctx: RequestContext, deps: HandlerDeps, req: ApplyRequest): Promise<void> {
  const info = ctx.resource!;
  const ns = ctx.info.namespace;
  const name = ctx.info.name!;
  const sub = ctx.subresource?.name;
  if (!isObject(req.config)) throw badRequest(`error decoding patch: the apply configuration must be an object`);
  const config = req.config as KubeObject;
  if (!config.apiVersion || !config.kind) {
    throw badRequest(`Object 'Kind' is missing in '${JSON.stringify(config)}'`);
  }
  checkTypeMeta(ctx, info, config);
  config.metadata ??= {};
  if (config.metadata.name !== undefined && config.metadata.name !== name) {
    throw badRequest(`the name of the object (${config.metadata.name}) does not match the name on the URL (${name})`);
  }
  const warnings = checkDecodedObject(config, info.definition, { kind: info.kind, version: info.version, fieldValidation: req.validation, duplicateFields: req.duplicates, wrap: false });
  ctx.warnings.push(...warnings);
  const mctx = () => managerContext(info, req.manager, sub, rfc3339(deps.now()));
  const opts = { dryRun: req.dryRun, subresource: sub, manager: req.manager, operation: 'Apply' as const, ...admission(ctx, deps, 'PatchOptions', req.dryRun, req.manager) };
  for (let attempt = 0; ; attempt++) {
    try {
      const out = await deps.registry.modify(info, ns, name, cur => applyConfiguration(cur, config, mctx(), req.force) as KubeObject, opts);
      return sendObject(ctx, 200, out);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404) || sub || attempt > 0) throw err;
    }
    // nothing there yet: apply creates it
    const fresh = applyConfiguration(undefined, { ...config, metadata: { ...config.metadata, name } }, mctx(), req.force) as KubeObject;
    try {
      const created = await deps.registry.create(info, ns, fresh, opts);
      return sendObject(ctx, 201, created);
    } catch (err) {
      // created meanwhile by someone else: apply to what they made
      if (!(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
    }
  }
}
