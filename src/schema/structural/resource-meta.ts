// What custom-resource serving checks of a resource's own type and metadata besides the
// registry's generic metadata rules (names are DNS subdomains there): apiVersion and kind must
// be the CRD's, before anything else is looked at; finalizers a write adds get kube-apiserver's
// warnings when they are not domain-qualified.

import type { FieldError } from '../../api/status.ts';
import { qualifiedNameErrors } from '../../api/label-rules.ts';

/** kind and apiVersion of a custom resource against its CRD's; when not empty, nothing else is validated */
export function validateCustomResourceTypeMeta(object: { apiVersion?: unknown; kind?: unknown }, group: string, version: string, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = `${group}/${version}`;
  if (object.kind !== kind) errs.push({ type: 'FieldValueInvalid', field: 'kind', value: object.kind ?? '', detail: `must be ${kind}` });
  if (object.apiVersion !== apiVersion) errs.push({ type: 'FieldValueInvalid', field: 'apiVersion', value: object.apiVersion ?? '', detail: `must be ${apiVersion}` });
  return errs;
}

const standardFinalizers = new Set(['orphan', 'foregroundDeletion', 'kubernetes']);

/** warnings for the finalizers `object` adds over `old` (all of them on create), sorted */
export function customResourceFinalizerWarnings(object: { metadata?: { finalizers?: string[] } }, old?: { metadata?: { finalizers?: string[] } }): string[] {
  const before = new Set(old?.metadata?.finalizers ?? []);
  const added = [...new Set(object.metadata?.finalizers ?? [])].filter(f => !before.has(f)).sort();
  const warnings: string[] = [];
  const at = 'metadata.finalizers';
  for (const f of added) {
    for (const msg of qualifiedNameErrors(f)) warnings.push(`${at}: ${JSON.stringify(f)}: ${msg}`);
    if (!f.includes('/') && !standardFinalizers.has(f)) {
      warnings.push(f.includes('.')
        ? `${at}: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`
        : `${at}: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`);
    }
  }
  return warnings;
}
