// Objects of a custom resource, as kube-apiserver's customresource strategy treats them: a
// generation that counts spec changes, status left to the status subresource when the version
// declares one, and the version's schema (version-schema.ts) pruning, defaulting and validating
// every write.

import type { KubeObject } from '../../api/object.ts';
import type { ResourceInfo } from '../../schema/types.ts';
import { strategyWith, type Strategy } from '../strategy.ts';
import { versionSchemaHooks } from './version-schema.ts';

const byInfo = new WeakMap<ResourceInfo, Strategy>();

function prepare(info: ResourceInfo, obj: KubeObject): void {
  const hooks = versionSchemaHooks(info.custom?.schema);
  hooks.prune(obj);
  hooks.applyDefaults(obj);
}

export function customResourceStrategy(info: ResourceInfo): Strategy {
  let s = byInfo.get(info);
  if (s) return s;
  const hooks = () => versionSchemaHooks(info.custom?.schema);
  s = strategyWith({
    tracksGeneration: true,
    prepareForCreate: obj => prepare(info, obj),
    prepareForUpdate: obj => prepare(info, obj),
    defaults: obj => hooks().applyDefaults(obj),
    validateCreate: obj => hooks().validate(obj, undefined),
    validateUpdate: (obj, old) => hooks().validate(obj, old),
  });
  byInfo.set(info, s);
  return s;
}
