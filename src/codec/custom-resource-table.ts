// The Table printer of a custom resource, made from its CRD version's additionalPrinterColumns
// as apiextensions-apiserver's table convertor makes it: Name first, then each column's
// JSONPath (client-go's syntax, missing keys allowed) read from the object, its first result
// turned into a cell of the column's type. A value that is absent, of another type, or that the
// path errs on is a null cell (which kubectl leaves blank); a date column holds the age kubectl
// shows. Without columns the CRD serves one: Age, from metadata.creationTimestamp.

import type { KubeObject } from '../api/object.ts';
import { evaluateJsonPath, parseJsonPath, type Step } from '../api/jsonpath/evaluate.ts';
import type { PrinterColumnSpec } from '../schema/types.ts';
import type { Column, Printer } from '../schema/printers/types.ts';
import { humanDuration } from '../schema/printers/format.ts';
import { goFloat } from '../schema/structural/go-format.ts';
import { goJsonUnstructured } from './go-json.ts';

// ObjectMeta's field documentation, which Kubernetes gives these two columns
const nameDescription = 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const creationTimestampDescription = 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** what a CRD without additionalPrinterColumns serves */
export const defaultPrinterColumns: readonly PrinterColumnSpec[] = [
  { name: 'Age', type: 'date', description: creationTimestampDescription, jsonPath: '.metadata.creationTimestamp' },
];

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** a date cell: the age of an RFC 3339 time, as metav1.Time reads a query parameter */
function dateCell(text: string, now: Date): string {
  if (text === '' || text === 'null') return '<unknown>';
  const t = rfc3339.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(t) ? '<invalid>' : humanDuration(now.getTime() - t);
}

/** a value as client-go's jsonpath prints it: JSON for maps and lists, fmt's %v otherwise */
function printed(v: unknown): string {
  if (v === null || v === undefined) return '<no value>';
  if (typeof v === 'object') return goJsonUnstructured(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  return String(v);
}

/** the cell of a column's type for the first value its path found */
export function cellFor(type: string, v: unknown, now: Date): unknown {
  if (type === 'string') return printed(v);
  switch (type) {
    case 'integer': return typeof v === 'number' ? Math.trunc(v) : null;
    case 'number': return typeof v === 'number' ? v : null;
    case 'boolean': return typeof v === 'boolean' ? v : null;
    case 'date': return typeof v === 'string' ? dateCell(v, now) : null;
    default: return null;
  }
}

interface Compiled { type: string; steps: Step[] }

/** the Table printer of one served version's columns (none: the default Age column) */
export function customResourcePrinter(specs: readonly PrinterColumnSpec[] | undefined): Printer {
  const given = specs?.length ? specs : defaultPrinterColumns;
  const columns: Column[] = [{ name: 'Name', type: 'string', format: 'name', description: nameDescription, priority: 0 }];
  const compiled: Compiled[] = [];
  for (const s of given) {
    let steps: Step[];
    // a path that does not parse ends the columns there, as Kubernetes keeps the ones before it
    try { steps = parseJsonPath(s.jsonPath); } catch { break; }
    compiled.push({ type: s.type, steps });
    columns.push({
      name: s.name, type: s.type as Column['type'], format: s.format ?? '',
      description: s.description || `Custom resource definition column (in JSONPath format): ${s.jsonPath}`,
      priority: s.priority ?? 0,
    });
  }
  return {
    columns,
    cells(obj: KubeObject, now: Date) {
      const row: unknown[] = [obj.metadata?.name ?? ''];
      for (const c of compiled) {
        let found: unknown[];
        try { found = evaluateJsonPath(c.steps, obj); } catch { found = []; }
        row.push(found.length ? cellFor(c.type, found[0], now) : null);
      }
      return row;
    },
  };
}

const printers = new WeakMap<object, Printer>();

/** the printer of a served custom resource, made once per CRD version as served */
export function printerOfCustomResource(serving: { printerColumns?: PrinterColumnSpec[] }): Printer {
  let p = printers.get(serving);
  if (!p) printers.set(serving, p = customResourcePrinter(serving.printerColumns));
  return p;
}
