// A printer: the columns Kubernetes' Table view shows for a resource and how to fill a row
// from an object. Cells of wide columns (priority 1) are always filled; clients pick.

import type { KubeObject } from '../../api/object.ts';

export interface Column {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  priority: number;
}

/** a condition on a row (Kubernetes marks finished pods `Completed`) */
export interface RowCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
}

/** a generated type as printers receive it: a stored object of that kind */
export type Of<T> = T & KubeObject;

/** `T`: the resource's objects, in whichever of its served versions the client asked for */
export interface Printer<T extends KubeObject = KubeObject> {
  columns: Column[];
  cells(obj: T, now: Date): unknown[];
  conditions?(obj: T): RowCondition[] | undefined;
}

/** a column: name, then type (default string), priority (1 = shown only with -o wide), format */
export function col(name: string, type: Column['type'] = 'string', priority = 0, format = ''): Column {
  return { name, type, format, description: '', priority };
}

export const nameColumn = (): Column => col('Name', 'string', 0, 'name');
export const ageColumn = (): Column => col('Age');
export const wideColumn = (name: string, type: Column['type'] = 'string'): Column => col(name, type, 1);
