// The params a binding gives its policy: the object its paramRef names (by name, or every object
// its selector matches) of the policy's paramKind, in the paramRef's namespace or the request's.
// A binding without paramRef, or a policy without paramKind, evaluates once with `params` null.
// Configuration problems are errors in kube-apiserver's words, which the dispatcher prefixes
// with "failed to configure binding: " and treats by the policy's failurePolicy.

import type { KubeObject } from '../../../../api/object.ts';
import { labelSelectorFromObject, matchesLabels } from '../../../../api/selectors/label.ts';
import type { Registry } from '../../../../registry/registry.ts';
import type { Catalog, ResourceInfo } from '../../../../schema/types.ts';
import type { CompiledPolicy } from './compiled-policy.ts';

export interface ParamRef { name?: string; namespace?: string; selector?: unknown; parameterNotFoundAction?: string }

/** a binding or policy that cannot be applied as configured */
export class ConfigurationError extends Error {}

/** the resource a paramKind names, or the error that makes its policy misconfigured */
export function paramResource(catalog: Catalog, kind: NonNullable<CompiledPolicy['paramKind']>): ResourceInfo | string {
  const apiVersion = kind.apiVersion ?? '';
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') as [string, string] : ['', apiVersion];
  return catalog.byKind(group, version, kind.kind ?? '')
    ?? `failed to find resource referenced by paramKind: '${group ? `${group}/` : ''}${version}, Kind=${kind.kind ?? ''}'`;
}

export async function resolveParams(registry: Registry, catalog: Catalog, policy: Pick<CompiledPolicy, 'paramKind'>, ref: ParamRef | undefined, requestNamespace: string): Promise<Array<KubeObject | null>> {
  const kind = policy.paramKind;
  if (!kind || !ref) return [null];
  const info = paramResource(catalog, kind);
  if (typeof info === 'string') throw new ConfigurationError(info);
  let namespace: string | undefined;
  if (info.namespaced) {
    namespace = ref.namespace || requestNamespace;
    if (!namespace) throw new ConfigurationError('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (ref.namespace) {
    throw new ConfigurationError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  let params: KubeObject[];
  if (ref.name) {
    if (ref.selector) throw new ConfigurationError('paramRef.name and paramRef.selector are mutually exclusive');
    try {
      params = [await registry.get(info, namespace, ref.name, undefined, true)];
    } catch (err) {
      if ((err as { code?: number }).code !== 404) throw err;
      params = [];
    }
  } else if (ref.selector) {
    const selector = labelSelectorFromObject(ref.selector);
    params = (await registry.list(info, namespace, { filter: o => matchesLabels(selector, o.metadata.labels as Record<string, string> | undefined) })).items;
  } else {
    throw new ConfigurationError('one of name or selector must be provided');
  }
  // v1 defaults parameterNotFoundAction to Deny
  if (!params.length && (ref.parameterNotFoundAction ?? 'Deny') === 'Deny') {
    throw new ConfigurationError('no params found for policy binding with `Deny` parameterNotFoundAction');
  }
  return params;
}
