// The one Kubernetes CEL environment of orch, shared by admission policies (and CRD validation
// rules): CEL's standard library plus the Kubernetes libraries policies use — cel-go's strings
// extension (as @bufbuild/cel provides it) and sets extension, lists, regex, quantity, URLs, the
// authorizer, and jsonpatch.escapeKey for mutations.

import { CelScalar, celEnv, celFunc, type CelEnv, type CelFunc } from '@bufbuild/cel';
import { setsLibrary } from './sets.ts';
import { strings } from '@bufbuild/cel/ext';
import { authorizerLibrary } from './authorizer.ts';
import { listLibrary } from './lists.ts';
import { optionalLibrary } from './optionals.ts';
import { quantityLibrary } from './quantity.ts';
import { regexLibrary } from './regex.ts';
import { celTypeRegistry } from './types.ts';
import { urlLibrary } from './urls.ts';

/** JSON Pointer escaping of one path segment, for JSONPatch mutations */
const jsonPatchLibrary = [
  celFunc('jsonpatch.escapeKey', [CelScalar.STRING], CelScalar.STRING, (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1')),
];

export const kubernetesLibraries: CelFunc[] = [
  ...strings, ...listLibrary, ...regexLibrary, ...quantityLibrary, ...urlLibrary, ...authorizerLibrary, ...jsonPatchLibrary, ...setsLibrary, ...optionalLibrary,
];

export const kubernetesEnv: CelEnv = celEnv({ funcs: kubernetesLibraries, registry: celTypeRegistry });

/** identifiers that name types rather than variables (`type(x) == int`) */
export const typeIdentifiers = new Set(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'list', 'map', 'null_type', 'type', 'dyn']);

/** functions the planner handles itself rather than through the function table */
export const plannerFunctions = new Set(['has']);

/** the variables admission policies' expressions may name (ValidatingAdmissionPolicy, MutatingAdmissionPolicy) */
export const admissionPolicyVariables: readonly string[] = ['object', 'oldObject', 'params', 'request', 'namespaceObject', 'authorizer', 'variables'];
