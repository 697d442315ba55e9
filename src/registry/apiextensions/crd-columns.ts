// A CRD version's additionalPrinterColumns and selectableFields, checked as kube-apiserver's
// CRD validation checks them and in its words: a column needs a name, one of the printer
// types, a known format and a JSONPath starting with `.`; a selectable field must name, by
// properties and map keys without array notation, a string, boolean or integer field outside
// metadata, once, and a version may have at most 8 (more are kept only when an update leaves
// an existing list unchanged).

import type { FieldError } from '../../api/status.ts';
import { jsonEqual } from '../../api/object.ts';
import { resolveFieldPath } from '../../schema/cel/crd-rules/field-path.ts';
import type { RuleSchema } from '../../schema/cel/crd-rules/schema.ts';
import type { Crd, CrdVersion } from './crd-types.ts';

const columnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
export const maxSelectableFields = 8;

type Column = NonNullable<CrdVersion['additionalPrinterColumns']>[number];

function columnErrors(col: Column, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push({ type: 'FieldValueRequired', field: `${at}.name` });
  const types = `must be one of ${columnTypes.join(',')}`;
  if (!col.type) errs.push({ type: 'FieldValueRequired', field: `${at}.type`, detail: types });
  else if (!columnTypes.includes(col.type)) errs.push({ type: 'FieldValueInvalid', field: `${at}.type`, value: col.type, detail: types });
  if (col.format && !columnFormats.includes(col.format)) {
    errs.push({ type: 'FieldValueInvalid', field: `${at}.format`, value: col.format, detail: `must be one of ${columnFormats.join(',')}` });
  }
  if (!col.jsonPath) errs.push({ type: 'FieldValueRequired', field: `${at}.JSONPath` });
  else if (!col.jsonPath.startsWith('.')) errs.push({ type: 'FieldValueInvalid', field: `${at}.JSONPath`, value: col.jsonPath, detail: 'must be a simple json path starting with .' });
  return errs;
}

function selectableFieldErrors(fields: { jsonPath: string }[], schema: RuleSchema, at: string, allowTooMany: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    const field = `${at}[${i}].jsonPath`;
    if (!f?.jsonPath) { errs.push({ type: 'FieldValueRequired', field }); return; }
    const found = f.jsonPath.includes('[') ? new Error('array notation is not allowed') : resolveFieldPath(f.jsonPath, schema);
    if (found instanceof Error) { errs.push({ type: 'FieldValueInvalid', field, value: f.jsonPath, detail: `is an invalid path: ${found.message}` }); return; }
    if (found.path.split(/[.[]/)[0] === 'metadata') errs.push({ type: 'FieldValueInvalid', field, value: f.jsonPath, detail: 'must not point to fields in metadata' });
    const type = found.schema?.type;
    if (type !== 'string' && type !== 'boolean' && type !== 'integer') {
      errs.push({ type: 'FieldValueInvalid', field, value: f.jsonPath, detail: 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.' });
    }
    if (seen.has(found.path)) errs.push({ type: 'FieldValueDuplicate', field, value: f.jsonPath });
    else seen.add(found.path);
  });
  if (seen.size > maxSelectableFields && !allowTooMany) {
    errs.push({ type: 'FieldValueTooMany', field: at, value: seen.size, detail: `must have at most ${maxSelectableFields} items` });
  }
  return errs;
}

/** the field errors of every version's printer columns and selectable fields (old: the CRD an update replaces) */
export function validateCrdColumnsAndFields(crd: Crd, old?: Crd): FieldError[] {
  const errs: FieldError[] = [];
  (crd.spec?.versions ?? []).forEach((v, i) => {
    const at = `spec.versions[${i}]`;
    (v.additionalPrinterColumns ?? []).forEach((c, j) => errs.push(...columnErrors(c ?? {} as Column, `${at}.additionalPrinterColumns[${j}]`)));
    const fields = v.selectableFields ?? [];
    if (fields.length === 0) return;
    const schema = v.schema?.openAPIV3Schema;
    if (!schema || typeof schema !== 'object') {
      errs.push({ type: 'FieldValueInvalid', field: `${at}.selectableFields`, value: '', detail: 'may only be set when `version.schema.openAPIV3Schema` is not included' });
      return;
    }
    const before = old?.spec?.versions?.find(o => o.name === v.name)?.selectableFields;
    const allowTooMany = !!before && before.length > maxSelectableFields && jsonEqual(before, fields);
    errs.push(...selectableFieldErrors(fields, schema as RuleSchema, `${at}.selectableFields`, allowTooMany));
  });
  return errs;
}
