// Query parameters of writes (create, update, patch): fieldValidation, fieldManager, force.
// Bad values are 422s on the options kind, as Kubernetes reports them.

import { invalid } from '../../api/status.ts';
import { parseFieldValidation, type FieldValidation } from '../../schema/decode-checks/field-validation.ts';
import { queryBool } from '../query-params.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import type { WriteOptions } from '../../registry/registry.ts';
import { writeAdmission } from '../admission/request.ts';

export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

/**
 * the request's admission (the plugin chain, and RBAC's escalation check), requester and
 * warnings (the strategy's, into the Warning header), passed to the registry with the other
 * write options
 */
export function admission(ctx: RequestContext, deps: HandlerDeps, kind: OptionsKind, dryRun: boolean, manager?: string): Pick<WriteOptions, 'admit' | 'admission' | 'user' | 'warn'> {
  // a write retried on a conflict validates again: each warning is said once
  const out: Pick<WriteOptions, 'admit' | 'admission' | 'user' | 'warn'> = { warn: text => { if (!ctx.warnings.includes(text)) ctx.warnings.push(text); } };
  if (ctx.admit) out.admit = ctx.admit;
  if (ctx.user) out.user = ctx.user;
  if (deps.admission) out.admission = writeAdmission(ctx, deps.admission, kind, dryRun, manager);
  return out;
}

function optionsInvalid(kind: OptionsKind, field: string, type: 'FieldValueNotSupported' | 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueForbidden', value: unknown, detail: string) {
  return invalid(kind, 'meta.k8s.io', '', [{ type, field, value, detail }]);
}

export function fieldValidation(ctx: RequestContext, kind: OptionsKind): FieldValidation {
  const raw = ctx.query.get('fieldValidation');
  const v = parseFieldValidation(raw);
  if (!v) throw optionsInvalid(kind, 'fieldValidation', 'FieldValueNotSupported', raw, 'supported values: "Ignore", "Strict", "Warn"');
  return v;
}

/** the fieldManager parameter: printable ASCII, at most 128 characters; undefined when absent */
export function fieldManager(ctx: RequestContext, kind: OptionsKind): string | undefined {
  const v = ctx.query.get('fieldManager');
  if (v === null || v === '') return undefined;
  if (v.length > 128) throw optionsInvalid(kind, 'fieldManager', 'FieldValueInvalid', v, 'must be no more than 128 characters');
  if (!/^[\x20-\x7e]*$/.test(v)) throw optionsInvalid(kind, 'fieldManager', 'FieldValueInvalid', v, 'must only contain printable characters');
  return v;
}

/**
 * The manager a write is recorded under: the fieldManager parameter, else the client's
 * User-Agent up to its first '/' ("kubectl/v1.33.0 (linux/amd64) ..." is "kubectl").
 */
export function managerName(ctx: RequestContext, kind: OptionsKind): string {
  const given = fieldManager(ctx, kind);
  if (given !== undefined) return given;
  const agent = String(ctx.headers['user-agent'] ?? '');
  const name = agent.split('/')[0]!.replace(/[^\x20-\x7e]/g, '');
  return name.slice(0, 128);
}

/** `force` is allowed on apply patches only; apply needs a fieldManager */
export function checkApplyOptions(ctx: RequestContext, isApply: boolean, manager: string | undefined): boolean {
  const forceRaw = ctx.query.get('force');
  const force = queryBool(ctx.query, 'force') ?? false;
  if (isApply && manager === undefined) throw optionsInvalid('PatchOptions', 'fieldManager', 'FieldValueRequired', '', 'is required for apply patch');
  // any force parameter at all, even false, is refused on other patches, as Kubernetes does
  if (!isApply && forceRaw !== null) throw optionsInvalid('PatchOptions', 'force', 'FieldValueForbidden', '', 'may not be specified for non-apply patch');
  return force;
}
