// The defaults a mutating webhook's or policy's change gets before anything else sees it, as
// kube-apiserver defaults each patched object: the resource strategy's decode-time defaults
// (a container a webhook added gets its imagePullPolicy, terminationMessagePath, ...).

import type { KubeObject } from '../../api/object.ts';
import { strategyFor } from '../../registry/strategies.ts';
import type { ResourceInfo } from '../../schema/types.ts';

export function defaultMutated(info: ResourceInfo, subresource: string, obj: KubeObject | undefined): void {
  // a subresource's body (Scale, Binding, ...) is not the resource's object
  if (!obj || subresource) return;
  strategyFor(info).defaults?.(obj);
}
