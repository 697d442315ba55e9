// Server-side Tables (meta.k8s.io Table): a printer's columns and one row per object, with the
// row's object as metadata only (default), whole, or left out (`includeObject`).

import type { KubeObject, ListMeta } from '../api/object.ts';
import type { Printer } from '../schema/printers/index.ts';
import { toPartialObjectMetadata } from './partial-metadata.ts';

export interface TableOptions {
  now: Date;
  includeObject: 'None' | 'Metadata' | 'Object';
  listMeta?: ListMeta;
  group: string;
  version: string;
}

export function toTable(printer: Printer, objects: KubeObject[], opts: TableOptions): Record<string, unknown> {
  const apiVersion = `${opts.group}/${opts.version}`;
  const rows = objects.map(obj => {
    const row: Record<string, unknown> = { cells: printer.cells(obj, opts.now) };
    if (opts.includeObject === 'Object') row.object = obj;
    else if (opts.includeObject !== 'None') row.object = toPartialObjectMetadata(obj, apiVersion);
    return row;
  });
  const metadata: Record<string, unknown> = {};
  if (opts.listMeta?.resourceVersion) metadata.resourceVersion = opts.listMeta.resourceVersion;
  if (opts.listMeta?.continue) metadata.continue = opts.listMeta.continue;
  if (opts.listMeta?.remainingItemCount !== undefined) metadata.remainingItemCount = opts.listMeta.remainingItemCount;
  return { kind: 'Table', apiVersion, metadata, columnDefinitions: printer.columns, rows };
}
