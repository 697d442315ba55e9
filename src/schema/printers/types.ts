// A printer: the columns Kubernetes shows for a resource and how to fill them from an object.

import type { KubeObject } from '../../api/object.ts';

export interface Column {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  priority: number;
}

export interface Printer {
  columns: Column[];
  cells(obj: KubeObject, now: Date): unknown[];
}

/** a column: name, then type (default string), format, priority (1 = shown only with -o wide) */
export function col(name: string, type: Column['type'] = 'string', priority = 0, format = ''): Column {
  return { name, type, format, description: '', priority };
}

export const nameColumn = (): Column => col('Name', 'string', 0, 'name');
