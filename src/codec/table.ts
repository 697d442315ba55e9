// Server-side Tables (meta.k8s.io Table): a printer's columns and one row per object. The row
// carries its object as metadata only (the default), whole, or not at all (`includeObject`).
// Wide columns (priority 1) are always filled in; clients choose which to show.

import type { KubeObject, ListMeta } from '../api/object.ts';
import type { Column, Printer, RowCondition } from '../schema/printers/types.ts';
import { toPartialObjectMetadata, type PartialObjectMetadata } from './partial-metadata.ts';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  now: Date;
  /** anything else (or nothing) means Metadata, the Kubernetes default */
  includeObject?: IncludeObject | string;
  /** the list's metadata; for a single object its resourceVersion is used instead */
  listMeta?: ListMeta;
  /** the view's group and version: meta.k8s.io (or meta.orch.io) and v1 (or v1beta1) */
  group: string;
  version: string;
}

export interface TableRow {
  cells: unknown[];
  conditions?: RowCondition[];
  object?: KubeObject | PartialObjectMetadata;
}

export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: ListMeta;
  columnDefinitions: Column[];
  rows: TableRow[];
}

function tableMeta(objects: KubeObject[], listMeta: ListMeta | undefined): ListMeta {
  const out: ListMeta = {};
  const rv = listMeta ? listMeta.resourceVersion : objects.length === 1 ? objects[0]!.metadata?.resourceVersion : undefined;
  if (rv) out.resourceVersion = rv;
  if (listMeta?.continue) out.continue = listMeta.continue;
  if (listMeta?.remainingItemCount !== undefined) out.remainingItemCount = listMeta.remainingItemCount;
  return out;
}

export function toTable(printer: Printer, objects: KubeObject[], opts: TableOptions): Table {
  const apiVersion = `${opts.group}/${opts.version}`;
  const rows = objects.map(obj => {
    const row: TableRow = { cells: printer.cells(obj, opts.now) };
    const conditions = printer.conditions?.(obj);
    if (conditions?.length) row.conditions = conditions;
    if (opts.includeObject === 'Object') row.object = obj;
    else if (opts.includeObject !== 'None') row.object = toPartialObjectMetadata(obj, apiVersion);
    return row;
  });
  return { kind: 'Table', apiVersion, metadata: tableMeta(objects, opts.listMeta), columnDefinitions: printer.columns, rows };
}
