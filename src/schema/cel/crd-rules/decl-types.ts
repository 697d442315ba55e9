// The CEL type of `self` at a schema node, as apiextensions-apiserver declares it for checking
// rules (SchemaDeclType): objects with their properties as fields (names escaped, a resource
// root with apiVersion, kind and metadata.name/generateName), additionalProperties as maps,
// int-or-string as dyn, string formats as bytes, durations and timestamps. Each list, map and
// string carries the most elements it can hold: its maxItems, maxProperties or maxLength (four
// bytes a character), else what fits in the largest request given the least an element takes
// when serialized. Schemas without a type (preserved unknown fields) have no CEL type.

import { DURATION, DYN, BOOL, BYTES, DOUBLE, INT, STRING, TIMESTAMP, type CelType } from '../checker/types.ts';
import { escapeProperty, isResourceRoot, withTypeAndObjectMeta } from './values.ts';
import { mapValues, maxRequestSizeBytes, type RuleSchema } from './schema.ts';

export interface DeclType { type: CelType; minSize: number }

// least serialized sizes (apiserver/pkg/cel): "" for strings, "0s" quoted, a date, a date-time
const minString = 2, minBool = 4, minNumber = 1, minDuration = 3, dateSize = 12, minDatetime = 21, maxDatetime = 32, maxDuration = 32;

const zeroIfNegative = (n: number) => Math.max(0, n);
const maxItemsFromMinSize = (min: number) => Math.floor((maxRequestSizeBytes - 2) / (min + 1));
const maxPropertiesFromMinSize = (min: number) => Math.floor((maxRequestSizeBytes - 2) / (min + 6));

function maxStringLength(s: RuleSchema): number {
  if (s['x-kubernetes-int-or-string']) return maxRequestSizeBytes - 2;
  switch (s.format) {
    case 'duration': return maxDuration;
    case 'date': return dateSize;
    case 'date-time': return maxDatetime;
    default: return maxRequestSizeBytes - 2;
  }
}

const sized = (t: CelType, maxElements: number): CelType => ({ ...t, maxElements } as CelType);

/** the type of values of schema `s`; `name` names object types as Kubernetes does (root.field...) */
export function declType(s: RuleSchema, root: boolean, name: string): DeclType | undefined {
  if (s['x-kubernetes-int-or-string']) {
    return { type: sized(DYN, s.maxLength !== undefined ? zeroIfNegative(s.maxLength) * 4 : maxStringLength(s)), minSize: 1 };
  }
  const schema = isResourceRoot(s, root) ? withTypeAndObjectMeta(s) : s;
  switch (schema.type) {
    case 'array': {
      if (!schema.items) return undefined;
      const items = declType(schema.items, schema.items['x-kubernetes-embedded-resource'] === true, `${name}.@idx`);
      if (!items) return undefined;
      const max = schema.maxItems !== undefined ? zeroIfNegative(schema.maxItems) : maxItemsFromMinSize(items.minSize);
      return { type: { kind: 'list', elem: items.type, maxElements: max }, minSize: 2 };
    }
    case 'object': {
      const values = mapValues(schema);
      if (values) {
        const v = declType(values, values['x-kubernetes-embedded-resource'] === true, `${name}.@elem`);
        if (!v) return undefined;
        const max = schema.maxProperties !== undefined ? zeroIfNegative(schema.maxProperties) : maxPropertiesFromMinSize(v.minSize);
        return { type: { kind: 'map', key: STRING, value: v.type, maxElements: max }, minSize: 2 };
      }
      const fields = new Map<string, CelType>();
      const required = new Set(schema.required ?? []);
      let minSize = 2;
      for (const [prop, sub] of Object.entries(schema.properties ?? {})) {
        const field = declType(sub, sub['x-kubernetes-embedded-resource'] === true, `${name}.${prop}`);
        if (!field) continue;
        const escaped = escapeProperty(prop);
        if (escaped !== undefined) fields.set(escaped, field.type);
        if (required.has(prop) && sub.default === undefined) minSize += prop.length + field.minSize + 4;
      }
      return { type: { kind: 'object', name, fields }, minSize };
    }
    case 'string': {
      const limit = (fallback: number) => schema.maxLength !== undefined ? zeroIfNegative(schema.maxLength) : fallback;
      switch (schema.format) {
        case 'byte': return { type: sized(BYTES, limit(maxStringLength(schema))), minSize: minString };
        case 'duration': return { type: sized(DURATION, maxStringLength(schema)), minSize: minDuration };
        case 'date': return { type: sized(TIMESTAMP, maxStringLength(schema)), minSize: dateSize };
        case 'date-time': return { type: sized(TIMESTAMP, maxStringLength(schema)), minSize: minDatetime };
        default: break;
      }
      const enumMax = schema.enum?.length ? Math.max(0, ...schema.enum.map(v => typeof v === 'string' ? Buffer.byteLength(v) : 0)) : undefined;
      const max = schema.maxLength !== undefined ? zeroIfNegative(schema.maxLength) * 4 : enumMax ?? maxStringLength(schema);
      return { type: sized(STRING, max), minSize: minString };
    }
    case 'boolean': return { type: BOOL, minSize: minBool };
    case 'number': return { type: DOUBLE, minSize: minNumber };
    case 'integer': return { type: INT, minSize: minNumber };
    default: return undefined;
  }
}

/** maxCardinality: how many times a node of this least size can occur in the largest request */
export function maxCardinality(minSize: number): number {
  return Math.floor(maxRequestSizeBytes / (minSize + 1));
}
