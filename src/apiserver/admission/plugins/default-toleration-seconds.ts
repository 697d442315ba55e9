// DefaultTolerationSeconds: a new pod that does not already
// tolerate the not-ready and unreachable NoExecute taints gets tolerations for them lasting
// 300 seconds, so a short node outage does not evict it at once.

import type { CoreV1PodSpec, CoreV1Toleration } from '../../../schema/generated/types.ts';
import type { AdmissionPlugin } from '../types.ts';

export const defaultTolerationSecondsValue = 300;

const taintKeys = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

function toleratesNoExecute(list: CoreV1Toleration[], key: string): boolean {
  return list.some(t => !!t && (t.effect === undefined || t.effect === '' || t.effect === 'NoExecute') && (t.key === key || ((t.key ?? '') === '' && t.operator === 'Exists')));
}

export function addDefaultTolerations(spec: Pick<CoreV1PodSpec, 'tolerations'>): void {
  if (spec.tolerations != null && !Array.isArray(spec.tolerations)) return; // malformed: the strategy refuses it
  const list = spec.tolerations ?? [];
  const added = taintKeys.filter(k => !toleratesNoExecute(list, k)).map(key => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultTolerationSecondsValue }));
  if (added.length) spec.tolerations = [...list, ...added];
}

/** the plugin: pods being created, not their subresources */
export function defaultTolerationSeconds(): AdmissionPlugin {
  return {
    name: 'DefaultTolerationSeconds',
    admit(a) {
      if (a.operation !== 'CREATE' || a.subresource || a.resource.group !== '' || a.resource.resource !== 'pods' || !a.object) return;
      addDefaultTolerations(((a.object as { spec?: Pick<CoreV1PodSpec, 'tolerations'> }).spec ??= {}));
    },
  };
}
