// The one Kubernetes CEL environment of orch, shared by admission policies (and CRD validation
// rules): CEL's standard library plus the Kubernetes libraries policies use — cel-go's strings
// extension (as @bufbuild/cel provides it), lists, regex, quantity, URLs and the authorizer.

import { celEnv, type CelEnv, type CelFunc } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { authorizerLibrary } from './authorizer.ts';
import { listLibrary } from './lists.ts';
import { quantityLibrary } from './quantity.ts';
import { regexLibrary } from './regex.ts';
import { celTypeRegistry } from './types.ts';
import { urlLibrary } from './urls.ts';

export const kubernetesLibraries: CelFunc[] = [
  ...strings, ...listLibrary, ...regexLibrary, ...quantityLibrary, ...urlLibrary, ...authorizerLibrary,
];

export const kubernetesEnv: CelEnv = celEnv({ funcs: kubernetesLibraries, registry: celTypeRegistry });

/** identifiers that name types rather than variables (`type(x) == int`) */
export const typeIdentifiers = new Set(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'list', 'map', 'null_type', 'type', 'dyn']);

/** functions the planner handles itself rather than through the function table */
export const plannerFunctions = new Set(['has']);
