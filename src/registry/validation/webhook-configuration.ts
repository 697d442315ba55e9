// Mutating- and ValidatingWebhookConfigurations checked as kube-apiserver checks them on create
// and update: each webhook's name (fully qualified, unique), rules, policies, sideEffects,
// timeout, selectors, clientConfig, admissionReviewVersions and matchConditions (compiled in
// the shared CEL environment). An update keeps what the stored object already got away with
// (unrecognized review versions, side effects, duplicate names, unchanged match conditions).

import type { FieldError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import { qualifiedNameErrors } from '../../api/label-rules.ts';
import { jsonEqual } from '../../api/object.ts';
import { labelSelectorFromObject } from '../../api/selectors/label.ts';
import { knownReviewVersions, validateFullyQualifiedName, validateReviewVersions, validateWebhookService, validateWebhookUrl } from './webhook-client.ts';
import { cel } from '../../schema/cel/on-demand.ts';

type Json = Record<string, any>;

export interface WebhookValidationOptions {
  mutating: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedReviewVersion: boolean;
  requireUniqueNames: boolean;
  checkMatchConditions: boolean;
}

const quoted = (xs: string[]) => `supported values: ${xs.map(x => JSON.stringify(x)).join(', ')}`;
const operations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const noSideEffects = ['None', 'NoneOnDryRun'];

function notSupported(field: string, value: unknown, allowed: string[]): FieldError {
  return { type: 'FieldValueNotSupported', field, value, detail: quoted(allowed) };
}

function wildcardWithOthers(list: string[] | undefined): boolean {
  return !!list && list.length > 1 && list.includes('*');
}

function validateResources(field: string, resources: string[] | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (!resources?.length) errs.push({ type: 'FieldValueRequired', field });
  const wildSub = new Set<string>(); // x/*
  const wildRes = new Set<string>(); // */x
  let double = false, single = false, plain = false;
  (resources ?? []).forEach((rs, i) => {
    if (!rs) { errs.push({ type: 'FieldValueRequired', field: `${field}[${i}]` }); return; }
    if (rs === '*/*') double = true;
    if (rs === '*') single = true;
    const slash = rs.indexOf('/');
    if (slash < 0) { plain = rs !== '*'; return; }
    const res = rs.slice(0, slash), sub = rs.slice(slash + 1);
    if (wildSub.has(res)) errs.push({ type: 'FieldValueInvalid', field: `${field}[${i}]`, value: rs, detail: `if '${res}/*' is present, must not specify ${rs}` });
    if (wildRes.has(sub)) errs.push({ type: 'FieldValueInvalid', field: `${field}[${i}]`, value: rs, detail: `if '*/${sub}' is present, must not specify ${rs}` });
    if (sub === '*') wildSub.add(res);
    if (res === '*') wildRes.add(sub);
  });
  if ((resources?.length ?? 0) > 1 && double) errs.push({ type: 'FieldValueInvalid', field, value: resources, detail: "if '*/*' is present, must not specify other resources" });
  if (single && plain) errs.push({ type: 'FieldValueInvalid', field, value: resources, detail: "if '*' is present, must not specify other resources without subresources" });
  return errs;
}

function validateRule(field: string, r: Json): FieldError[] {
  const errs: FieldError[] = [];
  const ops: string[] | undefined = r.operations;
  if (!ops?.length) errs.push({ type: 'FieldValueRequired', field: `${field}.operations` });
  if (wildcardWithOthers(ops)) errs.push({ type: 'FieldValueInvalid', field: `${field}.operations`, value: ops, detail: "if '*' is present, must not specify other operations" });
  (ops ?? []).forEach((op, i) => { if (!operations.includes(op)) errs.push(notSupported(`${field}.operations[${i}]`, op, operations)); });
  if (!r.apiGroups?.length) errs.push({ type: 'FieldValueRequired', field: `${field}.apiGroups` });
  if (wildcardWithOthers(r.apiGroups)) errs.push({ type: 'FieldValueInvalid', field: `${field}.apiGroups`, value: r.apiGroups, detail: "if '*' is present, must not specify other API groups" });
  if (!r.apiVersions?.length) errs.push({ type: 'FieldValueRequired', field: `${field}.apiVersions` });
  if (wildcardWithOthers(r.apiVersions)) errs.push({ type: 'FieldValueInvalid', field: `${field}.apiVersions`, value: r.apiVersions, detail: "if '*' is present, must not specify other API versions" });
  (r.apiVersions ?? []).forEach((v: string, i: number) => { if (!v) errs.push({ type: 'FieldValueRequired', field: `${field}.apiVersions[${i}]` }); });
  errs.push(...validateResources(`${field}.resources`, r.resources));
  if (r.scope !== undefined && r.scope !== null && !['*', 'Cluster', 'Namespaced'].includes(r.scope)) errs.push(notSupported(`${field}.scope`, r.scope, ['*', 'Cluster', 'Namespaced']));
  return errs;
}

function validateSelector(field: string, sel: unknown): FieldError[] {
  if (sel === undefined || sel === null) return [];
  try {
    labelSelectorFromObject(sel);
    return [];
  } catch (err) {
    return [{ type: 'FieldValueInvalid', field, value: sel, detail: (err as Error).message }];
  }
}

function validateMatchConditions(field: string, conditions: Json[] | undefined): FieldError[] {
  const list = conditions ?? [];
  if (list.length > 64) return [{ type: 'FieldValueTooMany', field, value: list.length, detail: 'must have at most 64 items' }];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((c, i) => {
    const at = `${field}[${i}]`;
    const expr = String(c.expression ?? '').trim();
    if (!expr) errs.push({ type: 'FieldValueRequired', field: `${at}.expression` });
    else {
      try { cel().compileCel(expr, ['object', 'oldObject', 'request', 'authorizer']); } catch (err) {
        errs.push({ type: 'FieldValueInvalid', field: `${at}.expression`, value: expr, detail: `compilation failed: ${(err as Error).message}` });
      }
    }
    if (!c.name) errs.push({ type: 'FieldValueRequired', field: `${at}.name` });
    else for (const m of qualifiedNameErrors(c.name)) errs.push({ type: 'FieldValueInvalid', field: `${at}.name`, value: c.name, detail: m });
    if (c.name) {
      if (names.has(c.name)) errs.push({ type: 'FieldValueDuplicate', field: `${at}.name`, value: c.name });
      names.add(c.name);
    }
  });
  return errs;
}

function validateWebhook(field: string, w: Json, o: WebhookValidationOptions): FieldError[] {
  const errs = validateFullyQualifiedName(`${field}.name`, w.name);
  (w.rules ?? []).forEach((r: Json, i: number) => errs.push(...validateRule(`${field}.rules[${i}]`, r)));
  if (w.failurePolicy != null && !['Fail', 'Ignore'].includes(w.failurePolicy)) errs.push(notSupported(`${field}.failurePolicy`, w.failurePolicy, ['Fail', 'Ignore']));
  if (w.matchPolicy != null && !['Equivalent', 'Exact'].includes(w.matchPolicy)) errs.push(notSupported(`${field}.matchPolicy`, w.matchPolicy, ['Equivalent', 'Exact']));
  const sideEffects = o.requireNoSideEffects ? noSideEffects : ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
  if (w.sideEffects == null) errs.push({ type: 'FieldValueRequired', field: `${field}.sideEffects`, detail: `must specify one of ${sideEffects.join(', ')}` });
  else if (!sideEffects.includes(w.sideEffects)) errs.push(notSupported(`${field}.sideEffects`, w.sideEffects, sideEffects));
  if (w.timeoutSeconds != null && (w.timeoutSeconds > 30 || w.timeoutSeconds < 1)) errs.push({ type: 'FieldValueInvalid', field: `${field}.timeoutSeconds`, value: w.timeoutSeconds, detail: 'the timeout value must be between 1 and 30 seconds' });
  errs.push(...validateSelector(`${field}.namespaceSelector`, w.namespaceSelector));
  errs.push(...validateSelector(`${field}.objectSelector`, w.objectSelector));
  if (o.mutating && w.reinvocationPolicy != null && !['IfNeeded', 'Never'].includes(w.reinvocationPolicy)) errs.push(notSupported(`${field}.reinvocationPolicy`, w.reinvocationPolicy, ['IfNeeded', 'Never']));
  const cc: Json = w.clientConfig ?? {};
  if ((cc.url == null) === (cc.service == null)) errs.push({ type: 'FieldValueRequired', field: `${field}.clientConfig`, detail: 'exactly one of url or service is required' });
  else if (cc.url != null) errs.push(...validateWebhookUrl(`${field}.clientConfig.url`, String(cc.url)));
  else errs.push(...validateWebhookService(`${field}.clientConfig.service`, cc.service));
  if (o.checkMatchConditions) errs.push(...validateMatchConditions(`${field}.matchConditions`, w.matchConditions));
  return errs;
}

export function validateWebhookConfiguration(obj: KubeObject, o: WebhookValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ((obj.webhooks ?? []) as Json[]).forEach((w, i) => {
    const field = `webhooks[${i}]`;
    errs.push(...validateWebhook(field, w, o));
    errs.push(...validateReviewVersions(`${field}.admissionReviewVersions`, w.admissionReviewVersions, o.requireRecognizedReviewVersion, `must specify one of ${knownReviewVersions.join(', ')}`));
    if (o.requireUniqueNames && w.name) {
      if (names.has(w.name)) errs.push({ type: 'FieldValueDuplicate', field: `${field}.name`, value: w.name });
      names.add(w.name);
    }
  });
  return errs;
}

/** what an update is held to, from what the stored configuration already satisfies */
export function updateOptions(obj: KubeObject, old: KubeObject, mutating: boolean): WebhookValidationOptions {
  const hooks = (old.webhooks ?? []) as Json[];
  const now = (obj.webhooks ?? []) as Json[];
  const names = hooks.map(h => h.name);
  return {
    mutating,
    requireNoSideEffects: hooks.every(h => noSideEffects.includes(h.sideEffects)),
    requireRecognizedReviewVersion: hooks.every(h => !h.admissionReviewVersions?.length || h.admissionReviewVersions.some((v: string) => knownReviewVersions.includes(v))),
    requireUniqueNames: new Set(names).size === names.length,
    // unchanged conditions are not compiled again (the environment may have changed since)
    checkMatchConditions: now.length !== hooks.length || now.some((h, i) => !jsonEqual(h.matchConditions ?? null, hooks[i]!.matchConditions ?? null)),
  };
}
