// The admission interface as the issue-24 brief fixes it; the "admission" helper owns this file
// on its branch, and its version replaces this one when the branches are merged.

import type { KubeObject } from '../../api/object.ts';
import type { ResourceInfo } from '../../schema/types.ts';
import type { User } from '../user.ts';

export interface AdmissionAttributes {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  resource: ResourceInfo;
  subresource: string;
  namespace: string;
  name: string;
  object?: KubeObject;
  oldObject?: KubeObject;
  options?: KubeObject;
  user: User;
  dryRun: boolean;
  warn(text: string): void;
  annotate(key: string, value: string): void;
}

export interface AdmissionPlugin {
  readonly name: string;
  admit?(a: AdmissionAttributes): void | Promise<void>;
  validate?(a: AdmissionAttributes): void | Promise<void>;
}
